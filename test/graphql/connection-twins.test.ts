import type { Keypair } from '@stellar/stellar-sdk';
import { OutboxMessage } from '../../src/modules/outbox/outbox.entity';
import { SecondChanceOffer } from '../../src/modules/offers/offers.entity';
import { Money } from '../../src/core/money';
import { bidForReceipt } from '../bidlog/receipt.helpers';
import { blacklist } from '../blacklist/support';
import { uploadedId } from '../documents/documents.helpers';
import { createAccount, createPlatform, insertAccount, AccountType, type CreatedAccount } from '../helpers/factories';
import { createLot, DIRECT_SALE } from '../helpers/lots';
import { statementsSent } from '../helpers/statements';
import { appWith } from '../helpers/world';
import { sent } from '../messages/messages.helpers';
import { fileRequest } from '../requests/requests.helpers';
import { FREE_LOT, join } from '../trading/trading.helpers';
import { type ConnectionPage, expectWalksBothWays } from './connection.helpers';

// The connection twins of the lists a dashboard pages through: each pages forwards and
// backwards over the same items as the list it twins, counts them all, refuses another list's
// cursors and sizes over 100, runs as many statements for one item as for a page, and shows
// another platform's staff nothing of this platform's rows.

// The world is seeded through the API, several dozen signed requests: on a loaded machine more than the default 30 s.
jest.setTimeout(180_000);

const world = appWith(async (t) => {
  const platform = await createPlatform(t);
  const otherPlatform = await createPlatform(t);
  const admin = await createAccount(t, platform, { type: 'admin' });
  const otherAdmin = await createAccount(t, otherPlatform, { type: 'admin' });
  const users: CreatedAccount[] = [];
  for (let i = 0; i < 4; i++) users.push(await createAccount(t, platform));
  const [u1, u2, u3, u4] = users;

  for (let i = 0; i < 4; i++) await fileRequest(t, u1.keypair);
  await fileRequest(t, (await createAccount(t, otherPlatform)).keypair);

  const sale = await createLot(t, admin.keypair, DIRECT_SALE);
  for (const [from, to] of [[u1, admin], [admin, u1], [u2, admin], [u3, admin], [u1, u2], [u4, admin], [u1, u3], [u1, u4]] as const) {
    await sent(t, from.keypair, from.id, to.id, sale.id, `from ${from.id.slice(0, 4)}`);
  }

  const documents: string[] = [];
  for (let i = 0; i < 4; i++) documents.push(await uploadedId(t, u1.keypair, { attributes: { document_type: 'private', owners: [u1.id] } }));

  // An auction with a bid from each user: leaves of the log, and participants to offer the lot to.
  const auction = await createLot(t, admin.keypair, FREE_LOT);
  const participants = [];
  for (const u of users) participants.push(await join(t, u.keypair, auction.id));
  for (const [i, u] of users.entries()) await bidForReceipt(t, u.keypair, auction.id, String(1000 + 100 * i));
  const em = t.orm.em.fork();
  const expiresAt = new Date(Date.now() + 3_600_000);
  // A lot has one open offer at a time: these were declined.
  for (const p of [...participants, ...participants]) {
    em.create(SecondChanceOffer, { lotId: auction.id, participantId: p.id, accountId: p.accountId, amount: new Money('1000'), currency: 'USD', state: 'declined', answeredAt: new Date(), expiresAt, offeredBy: admin.id });
  }
  for (let i = 0; i < 4; i++) em.create(OutboxMessage, { channel: 'email', recipient: `twin-${i}@example.com`, subject: 's', body: 'b', platformId: platform.publicKey() });
  em.create(OutboxMessage, { channel: 'email', recipient: 'other@example.com', subject: 's', body: 'b', platformId: otherPlatform.publicKey() });
  await em.flush();

  // Blacklisted last: a stopped account signs nothing more.
  for (let i = 0; i < 4; i++) await blacklist(t, admin.keypair, (await insertAccount(t.orm, AccountType.User, platform.publicKey())).publicKey(), i % 2 ? 'paused' : 'stopped');
  await blacklist(t, otherAdmin.keypair, (await insertAccount(t.orm, AccountType.User, otherPlatform.publicKey())).publicKey(), 'stopped');
  return { platform, otherPlatform, admin, otherAdmin, u1, sale, auction, documents };
});

type Page = ConnectionPage;

/** A twin: its field and arguments, the key of its nodes, who reads it, and the old list's keys in the twin's order. */
interface Twin {
  field: string;
  args: () => string;
  key: string;
  who: () => Keypair;
  old: () => Promise<string[]>;
}

async function gql(who: Keypair, query: string): Promise<any> {
  const res = await world.t.client.as(who).graphql(query);
  return res.body;
}

async function ok(who: Keypair, query: string): Promise<any> {
  const body = await gql(who, query);
  expect(body.errors).toBeUndefined();
  return body.data;
}

const joinArgs = (...parts: string[]) => parts.filter(Boolean).join(', ');

async function pageOf(twin: Twin, page: string, who = twin.who()): Promise<Page> {
  const args = joinArgs(twin.args(), page);
  const data = await ok(who, `{ ${twin.field}${args ? `(${args})` : ''} { edges { cursor node { ${twin.key} } } nodes { ${twin.key} } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount } }`);
  return data[twin.field];
}

const keysOf = (page: Page, key: string) => page.edges.map((e) => String(e.node[key]));

const TWINS: Record<string, Twin> = {
  requestsConnection: {
    field: 'requestsConnection',
    args: () => '',
    key: 'id',
    who: () => world.admin.keypair,
    old: async () => (await ok(world.admin.keypair, '{ requests(size: 100) { items { id } } }')).requests.items.map((i: any) => i.id),
  },
  accountCreateLotRequestsConnection: {
    field: 'accountCreateLotRequestsConnection',
    args: () => `accountId: "${world.u1.id}"`,
    key: 'id',
    who: () => world.admin.keypair,
    old: async () => (await ok(world.admin.keypair, `{ accountCreateLotRequests(accountId: "${world.u1.id}", size: 100) { items { id } } }`)).accountCreateLotRequests.items.map((i: any) => i.id),
  },
  lotMessagesConnection: {
    field: 'lotMessagesConnection',
    args: () => `lotId: "${world.sale.id}"`,
    key: 'id',
    who: () => world.admin.keypair,
    old: async () => (await ok(world.admin.keypair, `{ lotMessages(lotId: "${world.sale.id}", size: 100) { items { id } } }`)).lotMessages.items.map((i: any) => i.id),
  },
  messageDialogsConnection: {
    field: 'messageDialogsConnection',
    args: () => `receivers: ["${world.u1.id}"]`,
    key: 'id',
    who: () => world.u1.keypair,
    old: async () => (await ok(world.u1.keypair, `{ messageDialogs(receivers: ["${world.u1.id}"]) { id } }`)).messageDialogs.map((d: any) => d.id),
  },
  accountsConnection: {
    field: 'accountsConnection',
    args: () => '',
    key: 'id',
    who: () => world.admin.keypair,
    old: async () => (await ok(world.admin.keypair, '{ accounts(limit: 100) { id } }')).accounts.map((a: any) => a.id),
  },
  documentsConnection: {
    field: 'documentsConnection',
    args: () => `in: ${JSON.stringify(world.documents)}`,
    key: 'id',
    who: () => world.u1.keypair,
    old: async () => (await ok(world.u1.keypair, `{ documents(in: ${JSON.stringify(world.documents)}, size: 100) { items { id } } }`)).documents.items.map((d: any) => d.id),
  },
  secondChanceOffersConnection: {
    field: 'secondChanceOffersConnection',
    args: () => `lotId: "${world.auction.id}"`,
    key: 'id',
    who: () => world.admin.keypair,
    old: async () => (await ok(world.admin.keypair, `{ secondChanceOffers(lotId: "${world.auction.id}") { id } }`)).secondChanceOffers.map((o: any) => o.id),
  },
  blacklistConnection: {
    field: 'blacklistConnection',
    args: () => '',
    key: 'accountId',
    who: () => world.admin.keypair,
    old: async () => (await ok(world.admin.keypair, '{ blacklist { accountId } }')).blacklist.map((e: any) => e.accountId),
  },
  outboxConnection: {
    field: 'outboxConnection',
    args: () => '',
    key: 'id',
    who: () => world.admin.keypair,
    old: async () => (await ok(world.admin.keypair, '{ outbox(limit: 100) { id } }')).outbox.map((m: any) => m.id),
  },
  logEntriesConnection: {
    field: 'logEntriesConnection',
    args: () => `lotId: "${world.auction.id}"`,
    key: 'leafIndex',
    who: () => world.u1.keypair,
    old: async () => (await ok(world.u1.keypair, `{ logEntries(from: 0, lotId: "${world.auction.id}") { leafIndex } }`)).logEntries.map((e: any) => String(e.leafIndex)),
  },
};

describe.each(Object.keys(TWINS))('%s', (name) => {
  const twin = TWINS[name];

  it('pages forwards and backwards over the items of the list it twins, counting them all', async () => {
    const all = await twin.old();
    expect(all.length).toBeGreaterThanOrEqual(4);
    await expectWalksBothWays((args) => pageOf(twin, args), (page) => keysOf(page, twin.key), all, 2, { countBackwards: true });
  });

  it('refuses a cursor of another list and a made-up one, naming the argument', async () => {
    const other = TWINS[name === 'outboxConnection' ? 'accountsConnection' : 'outboxConnection'];
    const foreign = (await pageOf(other, 'first: 1')).edges[0].cursor;
    for (const cursor of [foreign, Buffer.from('{"id":1}').toString('base64url'), '1']) {
      const body = await gql(twin.who(), `{ ${twin.field}(${joinArgs(twin.args(), `first: 1, after: "${cursor}"`)}) { totalCount } }`);
      expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'invalid_cursor', status: 400, errors: [expect.objectContaining({ field: 'after' })] }) })]);
    }
  });

  it('refuses first or last outside 1 to 100, naming it', async () => {
    for (const [page, field] of [['first: 101', 'first'], ['last: 0', 'last'], ['first: 1, last: 1', 'last']]) {
      const body = await gql(twin.who(), `{ ${twin.field}(${joinArgs(twin.args(), page)}) { totalCount } }`);
      expect(body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'invalid_page', status: 400, errors: [expect.objectContaining({ field })] }) })]);
    }
  });

  it('runs the same statements for a page of one item and of four', async () => {
    const statementsFor = async (first: number) => {
      let page: Page | undefined;
      const sent = await statementsSent(async () => {
        page = await pageOf(twin, `first: ${first}`);
      });
      expect(page?.edges).toHaveLength(first);
      return sent.length;
    };
    await statementsFor(1);
    expect(await statementsFor(4)).toBe(await statementsFor(1));
  });
});

describe('another platform’s staff', () => {
  const other = () => world.otherAdmin.keypair;
  const idsOf = async (twin: Twin) => (await pageOf(twin, 'first: 100', other())).edges.map((e) => String(e.node[twin.key]));

  it('list none of this platform’s requests, accounts, blacklist entries or outbox messages', async () => {
    for (const name of ['requestsConnection', 'accountsConnection', 'blacklistConnection', 'outboxConnection']) {
      const mine = await TWINS[name].old();
      const theirs = await idsOf({ ...TWINS[name], args: () => '' });
      expect({ name, shared: theirs.filter((id) => mine.includes(id)) }).toEqual({ name, shared: [] });
      expect(theirs.length).toBeGreaterThan(0);
    }
  });

  it('are refused the account’s requests, the lot’s offers and the documents, and read none of the lot’s messages or the account’s dialogs', async () => {
    const refused = async (twin: Twin, code: string) => {
      const body = await gql(other(), `{ ${twin.field}(${joinArgs(twin.args(), 'first: 1')}) { totalCount } }`);
      expect(body.errors?.[0]?.extensions?.code).toBe(code);
    };
    await refused(TWINS.accountCreateLotRequestsConnection, 'not_allowed');
    await refused(TWINS.secondChanceOffersConnection, 'not_allowed');
    await refused(TWINS.documentsConnection, 'not_document_owner');
    expect((await pageOf(TWINS.lotMessagesConnection, 'first: 100', other())).totalCount).toBe(0);
    expect((await pageOf(TWINS.messageDialogsConnection, 'first: 100', other())).totalCount).toBe(0);
  });
});
