import { createAccount } from '../helpers/factories';
import { createLot, ENG_LOT, seedBids } from '../helpers/lots';
import { statementsSent } from '../helpers/statements';
import { appWithTwoPlatforms } from '../helpers/world';

// A connection read in the database counts its whole list only when `totalCount` is selected: a
// page of lots each asked for one bid would otherwise count every bid of every lot (a hot lot's
// history, times the page), which no selection shows.

const world = appWithTwoPlatforms();
let lotId: string;
let bidderId: string;

beforeAll(async () => {
  const { t, admin } = world;
  const bidder = await createAccount(t, world.platform);
  bidderId = bidder.id;
  lotId = String((await createLot(t, admin.keypair, ENG_LOT)).id);
  await seedBids(t, lotId, bidder.id, 30);
});

/** The connections, each asked as `(first: 2)` with `selection` under it: one read by a loader for many owners, one of an account, one read alone. */
const QUERIES = {
  'Lot.bidsConnection': (selection: string) => `query($lot: ID!) { lot(id: $lot) { bidsConnection(first: 2) { ${selection} } } }`,
  'Account.bidsConnection': (selection: string) => `query($account: String!) { account(id: $account) { bidsConnection(first: 2) { ${selection} } } }`,
  'Query.blacklistConnection': (selection: string) => `{ blacklistConnection(first: 2) { ${selection} } }`,
};

async function sent(name: keyof typeof QUERIES, selection: string): Promise<{ statements: string[]; data: any }> {
  let data: any;
  const statements = await statementsSent(async () => {
    const res = await world.t.client.as(world.admin.keypair).graphql(QUERIES[name](selection), { lot: lotId, account: bidderId });
    expect(res.body.errors).toBeUndefined();
    data = res.body.data;
  });
  return { statements, data };
}

const counting = (statements: string[]) => statements.filter((s) => /count\(\*\) from base/.test(s)).length;

describe.each(Object.keys(QUERIES) as (keyof typeof QUERIES)[])('%s', (name) => {
  it('counts its list when totalCount is selected, and only then', async () => {
    const counted = await sent(name, 'totalCount nodes { __typename }');
    expect(counting(counted.statements)).toBe(1);
    const uncounted = await sent(name, 'nodes { __typename } pageInfo { hasNextPage }');
    expect(counting(uncounted.statements)).toBe(0);
    expect(uncounted.statements.length).toBe(counted.statements.length);
    // Through a fragment, as a client's generated queries ask for it.
    const fragment = await sent(name, '... on ' + (name === 'Query.blacklistConnection' ? 'BlacklistEntryConnection' : 'BidConnection') + ' { totalCount }');
    expect(counting(fragment.statements)).toBe(1);
  });
});

it('answers the count and the page alike either way', async () => {
  const counted = await sent('Lot.bidsConnection', 'totalCount nodes { id } pageInfo { hasNextPage hasPreviousPage }');
  const uncounted = await sent('Lot.bidsConnection', 'nodes { id } pageInfo { hasNextPage hasPreviousPage }');
  expect(counted.data.lot.bidsConnection.totalCount).toBe(30);
  const { totalCount: _, ...page } = counted.data.lot.bidsConnection;
  expect(uncounted.data.lot.bidsConnection).toEqual(page);
  expect(page.pageInfo).toEqual({ hasNextPage: true, hasPreviousPage: false });
});
