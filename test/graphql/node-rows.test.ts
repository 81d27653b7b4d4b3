import { Money } from '../../src/core/money';
import { Bid } from '../../src/modules/bids/bids.entity';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { statementsSent } from '../helpers/statements';
import { appWithTwoPlatforms } from '../helpers/world';
import { depositOf, join } from '../trading/trading.helpers';

// A lot's rows (bids, participants, deposits) and the viewer's participations refetched by
// node(id:) show exactly what the lists that name them show the caller: never more.

const world = appWithTwoPlatforms();
let bidder: CreatedAccount;
let neighbour: CreatedAccount;
let lotId: string;
const ids: Record<'bid' | 'participant' | 'deposit' | 'participation', string> = { bid: '', participant: '', deposit: '', participation: '' };

beforeAll(async () => {
  const { t, platform } = world;
  bidder = await createAccount(t, platform);
  neighbour = await createAccount(t, platform);
  lotId = String((await createLot(t, platform, ENG_LOT)).id);
  const participant = await join(t, bidder.keypair, lotId);
  await depositOf(t, participant);
  const em = t.orm.em.fork();
  em.create(Bid, { lotId, participantId: participant.id, accountId: bidder.id, amount: new Money('1200.00') });
  await em.flush();
  const lists = await t.client.as(bidder.keypair).graphql(
    `query($id: ID!) { lot(id: $id) { bidsConnection { nodes { nodeId } } participants { nodeId } deposits { nodeId } } viewer { participations { nodes { nodeId } } } }`,
    { id: lotId },
  );
  const { lot, viewer } = lists.body.data;
  Object.assign(ids, { bid: lot.bidsConnection.nodes[0].nodeId, participant: lot.participants[0].nodeId, deposit: lot.deposits[0].nodeId, participation: viewer.participations.nodes[0].nodeId });
});

type Client = typeof world.t.client;
const clients = () => ({
  bidder: world.t.client.as(bidder.keypair),
  organizer: world.t.client.as(world.platform),
  admin: world.t.client.as(world.admin.keypair),
  neighbour: world.t.client.as(neighbour.keypair),
  otherPlatform: world.t.client.as(world.otherPlatform),
  otherAdmin: world.t.client.as(world.otherAdmin.keypair),
  anonymous: world.t.client,
});

const ROWS = {
  participant: { list: 'participants', fields: 'id accountId lotId stateStr state currentBid requestedBuyNow' },
  deposit: { list: 'deposits', fields: 'id accountId lotId participantId amount currency stateStr' },
} as const;

/** The row as the lot's list shows it to the client, or undefined when the list leaves it out. */
async function listed(client: Client, kind: keyof typeof ROWS) {
  const { list, fields } = ROWS[kind];
  const res = await client.graphql(`query($id: ID!) { lot(id: $id) { ${list} { nodeId ${fields} } } }`, { id: lotId });
  expect(res.body.errors).toBeUndefined();
  return (res.body.data.lot[list] as { nodeId: string }[]).find((r) => r.nodeId === ids[kind]);
}

async function refetched(client: Client, kind: keyof typeof ROWS) {
  const type = kind === 'participant' ? 'Participant' : 'Deposit';
  return client.graphql(`query($id: ID!) { node(id: $id) { nodeId ... on ${type} { ${ROWS[kind].fields} } } }`, { id: ids[kind] });
}

describe('node(id:) of a lot’s participants and deposits', () => {
  it.each(['participant', 'deposit'] as const)('answers the %s as Lot’s list does to those the list shows it to', async (kind) => {
    const { bidder: own, organizer, admin } = clients();
    for (const client of [own, organizer, admin]) {
      const row = await listed(client, kind);
      expect(row).toBeDefined();
      const res = await refetched(client, kind);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.node).toEqual(row);
    }
  });

  it.each(['participant', 'deposit'] as const)('refuses the %s to those the list hides it from: another platform’s staff, another user, anonymous', async (kind) => {
    const { neighbour: other, otherPlatform, otherAdmin, anonymous } = clients();
    for (const client of [other, otherPlatform, otherAdmin, anonymous]) {
      expect(await listed(client, kind)).toBeUndefined();
      const res = await refetched(client, kind);
      expect(res.body.data.node).toBeNull();
      expect(res.body.errors[0].extensions).toMatchObject({ code: `${kind}_not_found`, status: 404 });
      expect(JSON.stringify(res.body)).not.toContain(bidder.id);
    }
    // A hidden row is answered as one that does not exist: nothing tells the two apart.
    const missing = Buffer.from(kind === 'participant' ? 'Participant:987654321' : 'Deposit:987654321').toString('base64url');
    const absent = await anonymous.graphql(`query($id: ID!) { node(id: $id) { nodeId } }`, { id: missing });
    expect(absent.body.errors[0].extensions).toMatchObject({ code: `${kind}_not_found`, status: 404 });
  });
});

describe('node(id:) of a bid', () => {
  it('answers the bid to anyone, naming its bidder exactly where the lot’s history names it', async () => {
    for (const [name, client] of Object.entries(clients())) {
      const list = await client.graphql(`query($id: ID!) { lot(id: $id) { bidsConnection { nodes { nodeId id amount bidderId bidder { id } } } } }`, { id: lotId });
      const [bid] = list.body.data.lot.bidsConnection.nodes;
      const res = await client.graphql(`query($id: ID!) { node(id: $id) { nodeId ... on Bid { id amount bidderId bidder { id } } } }`, { id: ids.bid });
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.node).toEqual(bid);
      const named = ['bidder', 'organizer', 'admin'].includes(name);
      expect(res.body.data.node.bidderId).toBe(named ? bidder.id : null);
    }
  });

  it('answers an id of no bid as bid_not_found, and one of no number as a missing bid too', async () => {
    for (const id of ['Bid:987654321', 'Bid:abc']) {
      const res = await world.t.client.graphql(`query($id: ID!) { node(id: $id) { nodeId } }`, { id: Buffer.from(id).toString('base64url') });
      expect(res.body.data.node).toBeNull();
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'bid_not_found', status: 404 });
    }
  });
});

describe('node(id:) of a participation', () => {
  it('answers the viewer its own participation as viewer.participations does, and nobody else, its lot’s managers included', async () => {
    const fields = 'id isLeading currentBid stateStr';
    const { bidder: own, organizer, neighbour: other, otherAdmin, anonymous } = clients();
    const listed = (await own.graphql(`{ viewer { participations { nodes { nodeId ${fields} } } } }`)).body.data.viewer.participations.nodes[0];
    const query = `query($id: ID!) { node(id: $id) { nodeId ... on Participation { ${fields} } } }`;
    expect((await own.graphql(query, { id: ids.participation })).body.data.node).toEqual(listed);
    for (const client of [organizer, other, otherAdmin, anonymous]) {
      const res = await client.graphql(query, { id: ids.participation });
      expect(res.body.data.node).toBeNull();
      expect(res.body.errors[0].extensions.code).toBe('participant_not_found');
    }
  });
});

describe('nodes(ids:) of a lot’s rows', () => {
  it('refetches the rows in order, and a constant number of statements each', async () => {
    const { organizer } = clients();
    const statementsFor = async (list: string[]) => {
      let answer: any;
      const sent = await statementsSent(async () => {
        answer = await organizer.graphql(`query($ids: [ID!]!) { nodes(ids: $ids) { nodeId } }`, { ids: list });
      });
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data.nodes.map((n: { nodeId: string }) => n.nodeId)).toEqual(list);
      return sent.length;
    };
    const one = await statementsFor([ids.participant]);
    const two = await statementsFor([ids.participant, ids.participant]);
    // A row and its lot: two statements per id refetched (node() reads through its type's own read, as `node` of other types does).
    expect(two - one).toBeLessThanOrEqual(2);
  });
});
