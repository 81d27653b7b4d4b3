import { parse } from 'graphql';
import { Money } from '../../src/core/money';
import { checkCost } from '../../src/graphql/cost';
import { buildAppSchema } from '../../src/graphql/schema';
import { Bid } from '../../src/modules/bids/bids.entity';
import { Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';

// Lot.bidsConnection as a Relay connection: newest first, both directions, bounded and costed.

const world = appWithPlatform();
let lotId: string;
let otherLotId: string;
let bidder: CreatedAccount;
/** The amounts of the lot's 12 bids, oldest first. */
const AMOUNTS = Array.from({ length: 12 }, (_, i) => (1000 + i * 50).toFixed(2));
const NEWEST_FIRST = [...AMOUNTS].reverse();

beforeAll(async () => {
  const { t, platform } = world;
  lotId = String((await createLot(t, platform, ENG_LOT)).id);
  otherLotId = String((await createLot(t, platform, ENG_LOT)).id);
  bidder = await createAccount(t, platform);
  const em = t.orm.em.fork();
  for (const lot of [lotId, otherLotId]) {
    const participant = em.create(Participant, { lotId: lot, accountId: bidder.id, state: ParticipantState.Pending });
    await em.flush();
    for (const amount of lot === lotId ? AMOUNTS : AMOUNTS.slice(0, 2)) {
      em.create(Bid, { lotId: lot, participantId: participant.id, accountId: bidder.id, amount: new Money(amount) });
      await em.flush();
    }
  }
});

interface Page {
  edges: { cursor: string; node: { amount: string } }[];
  nodes: { amount: string }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount: number;
}

const pageOf = async (args: string, id = lotId, client = world.t.client) =>
  client.graphql(`query($id: ID!) { lot(id: $id) { bidsConnection${args} { edges { cursor node { amount } } nodes { amount } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount } } }`, { id });
const page = async (args: string): Promise<Page> => {
  const res = await pageOf(args);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.lot.bidsConnection;
};
const amounts = (p: Page) => p.edges.map((e) => e.node.amount);

describe('Lot.bidsConnection', () => {
  it('pages forwards from the newest bid with first/after, the cursors of the page’s ends in pageInfo', async () => {
    const one = await page('(first: 5)');
    expect(amounts(one)).toEqual(NEWEST_FIRST.slice(0, 5));
    expect(one.nodes).toEqual(one.edges.map((e) => e.node));
    expect(one.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: one.edges[0].cursor, endCursor: one.edges[4].cursor });
    expect(one.totalCount).toBe(12);
    const two = await page(`(first: 5, after: "${one.pageInfo.endCursor}")`);
    expect(amounts(two)).toEqual(NEWEST_FIRST.slice(5, 10));
    expect(two.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    const three = await page(`(first: 5, after: "${two.pageInfo.endCursor}")`);
    expect(amounts(three)).toEqual(NEWEST_FIRST.slice(10));
    expect(three.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(three.totalCount).toBe(12);
  });

  it('pages backwards with last/before, and answers a default page without arguments', async () => {
    const tail = await page('(last: 4)');
    expect(amounts(tail)).toEqual(NEWEST_FIRST.slice(8));
    expect(tail.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const before = await page(`(last: 4, before: "${tail.pageInfo.startCursor}")`);
    expect(amounts(before)).toEqual(NEWEST_FIRST.slice(4, 8));
    const between = await page(`(first: 10, after: "${before.edges[0].cursor}", before: "${tail.edges[1].cursor}")`);
    expect(amounts(between)).toEqual(NEWEST_FIRST.slice(5, 9));
    expect(amounts(await page(''))).toEqual(NEWEST_FIRST);
  });

  it('hides the bidder from others as Lot.bids does', async () => {
    const query = `query($id: ID!) { lot(id: $id) { bidsConnection(first: 1) { nodes { bidderId } } } }`;
    expect((await world.t.client.graphql(query, { id: lotId })).body.data.lot.bidsConnection.nodes).toEqual([{ bidderId: null }]);
    expect((await world.t.client.as(bidder.keypair).graphql(query, { id: lotId })).body.data.lot.bidsConnection.nodes).toEqual([{ bidderId: bidder.id }]);
  });

  it('refuses a cursor it did not make, one of another lot’s bids, and one it cannot read, naming the argument', async () => {
    const other = (await pageOf('(first: 1)', otherLotId)).body.data.lot.bidsConnection.edges[0].cursor;
    const forged = Buffer.from(JSON.stringify(['id', 1, '1', 1])).toString('base64url');
    for (const [arg, cursor] of [['after', other], ['before', other], ['after', forged], ['after', 'not a cursor!'], ['before', 'x'.repeat(5000)]]) {
      const res = await pageOf(`(first: 2, ${arg}: "${cursor}")`);
      expect(res.body.errors).toEqual([expect.objectContaining({ message: `${arg} is not a cursor of this list`, extensions: expect.objectContaining({ code: 'invalid_cursor', status: 400, errors: [expect.objectContaining({ field: arg })] }) })]);
    }
  });

  it('refuses first or last outside 1 to 100, and both at once', async () => {
    for (const [args, field, message] of [
      ['(first: 0)', 'first', 'first must be an integer from 1 to 100'],
      ['(first: 101)', 'first', 'first must be an integer from 1 to 100'],
      ['(last: -1)', 'last', 'last must be an integer from 1 to 100'],
      ['(first: 2, last: 2)', 'last', 'give first or last, not both'],
    ]) {
      const res = await pageOf(args);
      expect(res.body.errors).toEqual([expect.objectContaining({ message, extensions: expect.objectContaining({ code: 'invalid_page', status: 400, errors: [expect.objectContaining({ field })] }) })]);
    }
  });

  it('costs a connection at first (or last, or 100 without either) items, once for edges and once for nodes', async () => {
    const schema = buildAppSchema();
    const limits = { maxCost: 1e9, maxDepth: 15, maxTokens: 5000 };
    const cost = (q: string) => checkCost(schema, parse(q), {}, undefined, limits);
    expect(cost('subscription { lotUpdated(lotId: "1") { bidsConnection(first: 10) { edges { node { amount } } } } }')).toBe(32);
    expect(cost('subscription { lotUpdated(lotId: "1") { bidsConnection(last: 10) { edges { node { amount } } nodes { amount } } } }')).toBe(52);
    expect(cost('subscription { lotUpdated(lotId: "1") { bidsConnection { nodes { amount } } } }')).toBe(202);
    const nested = 'lots(first: 100) { nodes { bidsConnection(first: 100) { edges { cursor node { amount } } totalCount } } }';
    const res = await world.t.client.graphql(`{ a: ${nested} b: ${nested} }`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('query_too_costly');
  });
});
