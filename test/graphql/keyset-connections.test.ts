import type { Keypair } from '@stellar/stellar-sdk';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { statementsSent } from '../helpers/statements';
import { appWith } from '../helpers/world';
import { join } from '../trading/trading.helpers';

// `lots` and `deposits`, read by keyset in the database, as Relay connections: edges, both
// directions, totalCount, opaque cursors bound to their list.

const LOTS = 7;

const world = appWith(async (t) => {
  const platform = await createPlatform(t);
  const otherPlatform = await createPlatform(t);
  const buyer = await createAccount(t, platform);
  const lotIds: string[] = [];
  for (let i = 0; i < LOTS; i++) lotIds.push(String((await createLot(t, platform, ENG_LOT)).id));
  // Another platform's lot and a deposit on it by someone else: in neither list below.
  const foreignLot = String((await createLot(t, otherPlatform, ENG_LOT)).id);
  await join(t, (await createAccount(t, otherPlatform)).keypair, foreignLot);
  for (const lotId of lotIds) await join(t, buyer.keypair, lotId);
  return { platform, otherPlatform, buyer, lotIds };
});

interface Page {
  edges: { cursor: string; node: { id: string } }[];
  nodes: { id: string }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  totalCount: number;
}

const SELECTION = '{ edges { cursor node { id } } nodes { id } pageInfo { hasNextPage hasPreviousPage startCursor endCursor } totalCount }';
const lotsQuery = (args: string) => `query($p: [String!]) { lots(filter: { publisher: $p }, sort: { key: created_at }${args}) ${SELECTION} }`;
const gql = (who: Keypair | null, query: string, variables?: Record<string, unknown>) => (who ? world.t.client.as(who) : world.t.client).graphql(query, variables);

async function lotsPage(args: string): Promise<Page> {
  const res = await gql(null, lotsQuery(args), { p: [world.platform.publicKey()] });
  expect(res.body.errors).toBeUndefined();
  return res.body.data.lots;
}

async function depositsPage(who: CreatedAccount, args: string): Promise<Page> {
  const res = await gql(who.keypair, `{ deposits(sort: "created_at"${args}) ${SELECTION} }`);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.deposits;
}

const idsOf = (page: Page) => page.edges.map((e) => e.node.id);

/** Pages forwards and backwards through a list of `all` ids (oldest first), checking each page. */
async function walk(read: (args: string) => Promise<Page>, all: string[]) {
  const one = await read(', first: 3');
  expect(idsOf(one)).toEqual(all.slice(0, 3));
  expect(one.nodes).toEqual(one.edges.map((e) => e.node));
  // The first page has a start cursor: the Relay specification's pageInfo, not the previous page's.
  expect(one.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false, startCursor: one.edges[0].cursor, endCursor: one.edges[2].cursor });
  expect(one.totalCount).toBe(all.length);
  const two = await read(`, first: 3, after: "${one.pageInfo.endCursor}"`);
  expect(idsOf(two)).toEqual(all.slice(3, 6));
  expect(two.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
  const three = await read(`, first: 3, after: "${two.edges[2].cursor}"`);
  expect(idsOf(three)).toEqual(all.slice(6));
  expect(three.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

  const tail = await read(', last: 3');
  expect(idsOf(tail)).toEqual(all.slice(-3));
  expect(tail.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true, startCursor: tail.edges[0].cursor });
  const before = await read(`, last: 3, before: "${tail.pageInfo.startCursor}"`);
  expect(idsOf(before)).toEqual(all.slice(-6, -3));
  expect(before.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
  const head = await read(`, last: 3, before: "${before.pageInfo.startCursor}"`);
  expect(idsOf(head)).toEqual(all.slice(0, 1));
  expect(head.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
  expect(head.totalCount).toBe(all.length);
}

describe('lots as a Relay connection', () => {
  it('pages forwards with first/after and backwards with last/before, with edges, nodes and totalCount', async () => {
    await walk(lotsPage, world.lotIds);
  });

  it('answers 15 lots without first or last, as before', async () => {
    expect(idsOf(await lotsPage(''))).toEqual(world.lotIds);
  });

  it('gives opaque cursors bound to the list: another list’s cursor, or a readable one, is refused naming the argument', async () => {
    const { edges } = await lotsPage(', first: 1');
    // No JSON to read or forge in it.
    expect(Buffer.from(edges[0].cursor, 'base64url').toString('utf8')).not.toMatch(/^[[{]/);
    const deposits = await depositsPage(world.buyer, ', first: 1');
    for (const [arg, cursor, size] of [['after', deposits.edges[0].cursor, 'first'], ['before', deposits.edges[0].cursor, 'last'], ['after', Buffer.from('["created_at","x","1",1]').toString('base64url'), 'first']]) {
      const res = await gql(null, lotsQuery(`, ${size}: 1, ${arg}: "${cursor}"`), { p: [world.platform.publicKey()] });
      expect(res.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'invalid_cursor', status: 400, errors: [expect.objectContaining({ field: arg })] }) })]);
    }
  });

  it('refuses before with first and after with last, naming the cursor', async () => {
    const { pageInfo } = await lotsPage(', first: 2');
    for (const [args, field] of [[`, first: 2, before: "${pageInfo.endCursor}"`, 'before'], [`, last: 2, after: "${pageInfo.endCursor}"`, 'after'], [', first: 2, last: 2', 'last']]) {
      const res = await gql(null, lotsQuery(args), { p: [world.platform.publicKey()] });
      expect(res.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'invalid_page', status: 400, errors: [expect.objectContaining({ field })] }) })]);
    }
  });

  it('runs the same statements for a page of one lot and of seven, edges, nodes and totalCount asked', async () => {
    const statementsFor = async (first: number) => {
      const query = `query($p: [String!]) { lots(filter: { publisher: $p }, first: ${first}) { edges { cursor node { id organizer { id } } } nodes { id prices { start { amount } } } totalCount } }`;
      await gql(null, query, { p: [world.platform.publicKey()] });
      let answer: any;
      const sent = await statementsSent(async () => {
        answer = await gql(null, query, { p: [world.platform.publicKey()] });
      });
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data.lots.edges).toHaveLength(first);
      expect(answer.body.data.lots.totalCount).toBe(LOTS);
      return sent.length;
    };
    const one = await statementsFor(1);
    expect(await statementsFor(LOTS)).toBe(one);
    // The page, the count, the organizers: no statement per lot.
    expect(one).toBeLessThanOrEqual(4);
  });
});

describe('deposits as a Relay connection', () => {
  it('pages forwards and backwards through the caller’s deposits, counting them all', async () => {
    const all = idsOf(await depositsPage(world.buyer, ', first: 100'));
    expect(all).toHaveLength(LOTS);
    await walk((args) => depositsPage(world.buyer, args), all);
  });

  it('filters by states of the DepositState enum, as the deprecated state names do', async () => {
    const byEnum = await depositsPage(world.buyer, ', states: [PENDING]');
    const byName = await gql(world.buyer.keypair, '{ deposits(state: ["pending"]) { nodes { id } totalCount } }');
    expect(byEnum.totalCount).toBe(LOTS);
    expect(byName.body.data.deposits).toEqual({ nodes: byEnum.nodes.slice().reverse(), totalCount: LOTS });
    expect((await depositsPage(world.buyer, ', states: [PAID, RETURNED]')).totalCount).toBe(0);
    const both = await gql(world.buyer.keypair, '{ deposits(state: ["pending"], states: [PENDING]) { totalCount } }');
    expect(both.body.errors[0].extensions).toMatchObject({ code: 'invalid_parameter', status: 400, errors: [expect.objectContaining({ field: 'states' })] });
  });

  it('counts only what the list shows: another platform’s staff count none of these deposits', async () => {
    expect((await depositsPage(world.buyer, '')).totalCount).toBe(LOTS);
    const res = await gql(world.otherPlatform, '{ deposits { totalCount nodes { id } } }');
    expect(res.body.data.deposits.totalCount).toBe(1);
    expect(res.body.data.deposits.nodes).toHaveLength(1);
  });

  it('runs the same statements for a page of one deposit and of seven', async () => {
    const statementsFor = async (first: number) => {
      const query = `{ deposits(first: ${first}) { edges { cursor node { id participant { id } } } totalCount } }`;
      let answer: any;
      const sent = await statementsSent(async () => {
        answer = await gql(world.buyer.keypair, query);
      });
      expect(answer.body.data.deposits.edges).toHaveLength(first);
      return sent.length;
    };
    const one = await statementsFor(1);
    expect(await statementsFor(LOTS)).toBe(one);
  });
});
