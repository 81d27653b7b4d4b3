import { Money } from '../../src/core/money';
import { SecondChanceOffer } from '../../src/modules/offers/offers.entity';
import { OutboxMessage } from '../../src/modules/outbox/outbox.entity';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { createLot } from '../helpers/lots';
import { statementsSent } from '../helpers/statements';
import { appWithTwoPlatforms } from '../helpers/world';
import { FREE_LOT, join } from '../trading/trading.helpers';

// Messages, dialogs, second-chance offers, callback requests, outbox messages and ledger accounts
// refetched by node(id:) show exactly what their lists show the caller: to anyone the list hides
// one from, it is answered as an id of no row.

const world = appWithTwoPlatforms();
let buyer: CreatedAccount;
let stranger: CreatedAccount;
let lotId: string;

type Kind = 'message' | 'dialog' | 'offer' | 'lotCallback' | 'callback' | 'outbox' | 'ledger';
/** The global ids of each kind's rows, as their lists name them; the first is the one refetched. */
const ids = {} as Record<Kind, string[]>;
/** The first row of each kind as its list shows it to its reader. */
const listed = {} as Record<Kind, Record<string, unknown>>;

const KINDS = {
  message: { type: 'Message', fields: 'nodeId id lotId senderId receiverId text createdTime readTime', code: 'message_not_found' },
  dialog: { type: 'Dialog', fields: 'nodeId id lotId accountId withId unreadMessages lastMessageTime', code: 'dialog_not_found' },
  offer: { type: 'SecondChanceOffer', fields: 'nodeId id lotId participantId accountId amount currency state expiresAt', code: 'second_chance_offer_not_found' },
  lotCallback: { type: 'LotCallback', fields: 'nodeId id lotId accountId createdAt', code: 'callback_not_found' },
  callback: { type: 'Callback', fields: 'nodeId id lotId accountId createdTime', code: 'callback_not_found' },
  outbox: { type: 'OutboxMessage', fields: 'nodeId id channel recipient subject body createdTime', code: 'outbox_message_not_found' },
  ledger: { type: 'LedgerAccount', fields: 'nodeId id sequence balances { assetCode balance } signers { key weight } thresholds { low medium high }', code: 'ledger_account_not_found' },
} as const;

type Client = typeof world.t.client;
const clients = () => ({
  buyer: world.t.client.as(buyer.keypair),
  stranger: world.t.client.as(stranger.keypair),
  organizer: world.t.client.as(world.platform),
  admin: world.t.client.as(world.admin.keypair),
  otherPlatform: world.t.client.as(world.otherPlatform),
  otherAdmin: world.t.client.as(world.otherAdmin.keypair),
  anonymous: world.t.client,
});
type Reader = keyof ReturnType<typeof clients>;

/** Who each kind's list shows its first row to; everyone else must be refused it. */
const READERS: Record<Kind, Reader[]> = {
  message: ['buyer', 'admin', 'organizer'],
  dialog: ['buyer', 'admin', 'organizer'],
  offer: ['buyer', 'admin', 'organizer'],
  lotCallback: ['buyer', 'admin', 'organizer'],
  callback: ['buyer', 'admin', 'organizer'],
  outbox: ['admin', 'organizer'],
  ledger: ['buyer', 'stranger', 'admin', 'organizer', 'otherPlatform', 'otherAdmin', 'anonymous'],
};
const ALL: Reader[] = ['buyer', 'stranger', 'admin', 'organizer', 'otherPlatform', 'otherAdmin', 'anonymous'];

/** A global id as a client could forge one: the form is no secret, the checks behind it are the point. */
const forged = (type: string, id: string) => Buffer.from(`${type}:${id}`).toString('base64url');

async function data(client: Client, query: string, variables: Record<string, unknown> = {}) {
  const res = await client.graphql(query, variables);
  expect(res.body.errors).toBeUndefined();
  return res.body.data;
}

beforeAll(async () => {
  const { t, platform, admin } = world;
  buyer = await createAccount(t, platform);
  stranger = await createAccount(t, platform);
  lotId = String((await createLot(t, platform, FREE_LOT)).id);
  const asBuyer = t.client.as(buyer.keypair);
  const asAdmin = t.client.as(admin.keypair);

  for (const text of ['Is it still for sale?', 'And the tyres?', 'When may I see it?']) {
    const posted = await data(asBuyer, 'mutation($s: String!, $r: String!, $lot: ID!, $text: String!) { postMessage(input: { sender: $s, receiver: $r, lotId: $lot, text: $text }) { userErrors { code } } }', {
      s: buyer.id, r: admin.id, lot: lotId, text,
    });
    expect(posted.postMessage.userErrors).toEqual([]);
  }
  const messages = await data(asBuyer, `query($lot: ID!) { lotMessagesConnection(lotId: $lot) { nodes { ${KINDS.message.fields} } } }`, { lot: lotId });
  listed.message = messages.lotMessagesConnection.nodes[0];
  ids.message = messages.lotMessagesConnection.nodes.map((n: { nodeId: string }) => n.nodeId);
  // The one conversation seen from either account: two dialogs, both the buyer's to read.
  const dialogs = await data(asBuyer, `query($lot: ID!) { mine: messageDialogsConnection(lotId: $lot) { nodes { ${KINDS.dialog.fields} } } its: messageDialogsConnection(lotId: $lot, receivers: ["${admin.id}"], with: "${buyer.id}") { nodes { nodeId } } }`, { lot: lotId });
  listed.dialog = dialogs.mine.nodes[0];
  ids.dialog = [dialogs.mine.nodes[0].nodeId, dialogs.its.nodes[0].nodeId];

  const participant = await join(t, buyer.keypair, lotId);
  const em = t.orm.em.fork();
  for (const amount of ['1000.00', '1100.00', '1200.00']) {
    em.create(SecondChanceOffer, { lotId, participantId: participant.id, accountId: buyer.id, amount: new Money(amount), currency: 'USD', expiresAt: new Date(Date.now() + 3600_000), offeredBy: platform.publicKey(), state: 'declined' });
  }
  for (const subject of ['Welcome', 'Your lot', 'Your deposit']) {
    em.create(OutboxMessage, { channel: 'email', recipient: `${subject.length}@example.com`, platformId: platform.publicKey(), subject, body: 'Hello' });
  }
  await em.flush();
  const offers = await data(asBuyer, `query($lot: ID!) { secondChanceOffersConnection(lotId: $lot) { nodes { ${KINDS.offer.fields} } } }`, { lot: lotId });
  listed.offer = offers.secondChanceOffersConnection.nodes[0];
  ids.offer = offers.secondChanceOffersConnection.nodes.map((n: { nodeId: string }) => n.nodeId);
  const outbox = await data(asAdmin, `{ outboxConnection { nodes { ${KINDS.outbox.fields} } } }`);
  listed.outbox = outbox.outboxConnection.nodes[0];
  ids.outbox = outbox.outboxConnection.nodes.map((n: { nodeId: string }) => n.nodeId);

  const asked = await data(asBuyer, `mutation($lot: ID!) { addCallbackRequest(input: { lotId: $lot }) { callback { ${KINDS.callback.fields} } userErrors { code } } }`, { lot: lotId });
  expect(asked.addCallbackRequest.userErrors).toEqual([]);
  listed.callback = asked.addCallbackRequest.callback;
  await data(t.client.as(stranger.keypair), `mutation($lot: ID!) { addCallbackRequest(input: { lotId: $lot }) { userErrors { code } } }`, { lot: lotId });
  const callbacks = await data(t.client.as(platform), `query($lot: ID!) { lot(id: $lot) { callbacksConnection { nodes { ${KINDS.lotCallback.fields} } } } }`, { lot: lotId });
  const ofBuyer = callbacks.lot.callbacksConnection.nodes.filter((n: { accountId: string }) => n.accountId === buyer.id);
  const ofStranger = callbacks.lot.callbacksConnection.nodes.filter((n: { accountId: string }) => n.accountId === stranger.id);
  listed.lotCallback = ofBuyer[0];
  ids.lotCallback = [ofBuyer[0].nodeId, ofStranger[0].nodeId];
  ids.callback = [listed.callback.nodeId as string, forged('Callback', ofStranger[0].id)];

  const ledger = await data(asBuyer, `query($a: String!, $b: String!, $c: String!) { a: ledgerAccount(id: $a) { ${KINDS.ledger.fields} } b: ledgerAccount(id: $b) { nodeId } c: ledgerAccount(id: $c) { nodeId } }`, {
    a: buyer.id, b: stranger.id, c: admin.id,
  });
  listed.ledger = ledger.a;
  ids.ledger = [ledger.a.nodeId, ledger.b.nodeId, ledger.c.nodeId];
});

const refetch = (client: Client, kind: Kind, id = ids[kind][0]) =>
  client.graphql(`query($id: ID!) { node(id: $id) { __typename ... on ${KINDS[kind].type} { ${KINDS[kind].fields} } } }`, { id });

const EVERY_KIND = Object.keys(KINDS) as Kind[];

describe('node(id:) of rows with readers', () => {
  it.each(EVERY_KIND)('answers the %s to each reader of its list as the list shows it', async (kind) => {
    for (const reader of READERS[kind]) {
      const res = await refetch(clients()[reader], kind);
      expect({ reader, errors: res.body.errors }).toEqual({ reader, errors: undefined });
      expect(res.body.data.node).toEqual({ __typename: KINDS[kind].type, ...listed[kind] });
    }
  });

  it.each(EVERY_KIND.filter((kind) => kind !== 'ledger'))('answers the %s null to everyone its list hides it from, as an id of no row', async (kind) => {
    const all = clients();
    for (const reader of ALL.filter((r) => !READERS[kind].includes(r))) {
      const res = await refetch(all[reader], kind);
      expect({ reader, node: res.body.data.node }).toEqual({ reader, node: null });
      expect(res.body.errors[0].extensions.status).toBeLessThan(500);
      if (reader !== 'anonymous' || kind === 'outbox') expect({ reader, code: res.body.errors[0].extensions.code }).toEqual({ reader, code: KINDS[kind].code });
    }
  });

  it.each(EVERY_KIND)('answers a forged %s id of no row, or of no form, as no row, never a 500', async (kind) => {
    const { buyer: asBuyer, admin } = clients();
    const client = kind === 'outbox' ? admin : asBuyer;
    const absent = kind === 'dialog' ? `${lotId}-${stranger.id}-${world.otherAdmin.id}` : kind === 'ledger' ? 'GAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' : '987654321';
    for (const id of [absent, 'abc', "1' or 1=1", `${lotId}-x-y`]) {
      const res = await refetch(client, kind, forged(KINDS[kind].type, id));
      expect({ id, node: res.body.data.node }).toEqual({ id, node: null });
      expect({ id, code: res.body.errors[0].extensions.code, status: res.body.errors[0].extensions.status }).toEqual({ id, code: KINDS[kind].code, status: 404 });
    }
  });

  it.each(EVERY_KIND)('never answers a %s to its own id named as another type', async (kind) => {
    const { admin } = clients();
    const own = Buffer.from(ids[kind][0], 'base64url').toString('utf8').split(':')[1];
    for (const other of EVERY_KIND.filter((k) => k !== kind)) {
      const res = await admin.graphql('query($id: ID!) { node(id: $id) { __typename } }', { id: forged(KINDS[other].type, own) });
      expect(res.body.data.node?.__typename).not.toBe(KINDS[kind].type);
      expect(res.body.errors?.[0]?.extensions.status ?? 200).toBeLessThan(500);
    }
    const unknown = await admin.graphql('query($id: ID!) { node(id: $id) { __typename } }', { id: forged('LotStar', own) });
    expect(unknown.body.errors[0].extensions.code).toBe('invalid_node_id');
  });
});

describe('nodes(ids:) of rows with readers', () => {
  it.each(EVERY_KIND)('refetches several %s ids in order in as many statements as one', async (kind) => {
    const client = clients()[kind === 'outbox' ? 'admin' : 'organizer'];
    const statementsFor = async (list: string[]) => {
      let answer: any;
      const sent = await statementsSent(async () => {
        answer = await client.graphql('query($ids: [ID!]!) { nodes(ids: $ids) { nodeId } }', { ids: list });
      });
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data.nodes.map((n: { nodeId: string }) => n.nodeId)).toEqual(list);
      return sent.length;
    };
    expect(ids[kind].length).toBeGreaterThan(1);
    const one = await statementsFor(ids[kind].slice(0, 1));
    expect(await statementsFor(ids[kind])).toBe(one);
  });
});
