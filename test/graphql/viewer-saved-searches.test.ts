import { createAccount, type CreatedAccount } from '../helpers/factories';
import { statementsSent } from '../helpers/statements';
import { appWithPlatform } from '../helpers/world';

// viewer.savedSearches: the viewer's saved searches as a Relay connection paged in the database,
// beside the deprecated `savedSearches(accountId:, limit:)`, which lists the same searches.

const world = appWithPlatform();
let owner: CreatedAccount;
let other: CreatedAccount;
const MAKERS = ['Toyota', 'BMW', 'Audi', 'Kia', 'Ford'];

beforeAll(async () => {
  const { t, platform } = world;
  owner = await createAccount(t, platform);
  other = await createAccount(t, platform);
  for (const [who, makers] of [[owner, MAKERS], [other, ['Fiat']]] as const) {
    for (const maker of makers) {
      const res = await t.client.as(who.keypair).graphql(`mutation($id: String!, $maker: String!) { saveSearch(accountId: $id, filter: { maker: $maker }) { id } }`, { id: who.id, maker });
      expect(res.body.errors).toBeUndefined();
    }
  }
});

const PAGE = `query($first: Int, $after: String, $last: Int, $before: String) { viewer { savedSearches(first: $first, after: $after, last: $last, before: $before) {
  totalCount nodes { id nodeId filterJson createdTime } edges { cursor } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
} } }`;

const page = async (who: CreatedAccount, variables: Record<string, unknown>) => {
  const res = await world.t.client.as(who.keypair).graphql(PAGE, variables);
  expect(res.body.errors).toBeUndefined();
  return res.body.data.viewer.savedSearches;
};

describe('viewer.savedSearches', () => {
  it('pages through the viewer’s own searches both ways, newest first, the same searches the old list has', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const p: any = await page(owner, { first: 2, after });
      expect(p.totalCount).toBe(MAKERS.length);
      seen.push(...p.nodes.map((n: any) => n.id));
      if (!p.pageInfo.hasNextPage) break;
      after = p.pageInfo.endCursor;
    }
    const old = await world.t.client.as(owner.keypair).graphql(`query($id: String!) { savedSearches(accountId: $id) { id } }`, { id: owner.id });
    const oldIds = old.body.data.savedSearches.map((s: any) => s.id);
    expect(seen).toEqual([...oldIds].reverse());
    const backwards = await page(owner, { last: 2 });
    expect(backwards.nodes.map((n: any) => n.id)).toEqual(seen.slice(-2));
    expect(backwards.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    const others = await page(other, { first: 10 });
    expect(others.totalCount).toBe(1);
    expect(others.nodes[0].filterJson).toContain('Fiat');
  });

  it('refuses a cursor of another list', async () => {
    const lots = await world.t.client.graphql(`{ lots(first: 1) { pageInfo { endCursor } } }`);
    const made = Buffer.from('SavedSearch:1').toString('base64url');
    for (const foreign of [lots.body.data.lots.pageInfo.endCursor, made].filter(Boolean)) {
      const res = await world.t.client.as(owner.keypair).graphql(PAGE, { first: 1, after: foreign });
      expect(res.body.errors[0].extensions).toMatchObject({ code: 'invalid_cursor', status: 400 });
    }
  });

  it('reads a page of five in the statements of a page of one', async () => {
    const statementsFor = async (first: number) => {
      let answer: any;
      const sent = await statementsSent(async () => {
        answer = await page(owner, { first });
      });
      expect(answer.nodes).toHaveLength(first);
      return sent.length;
    };
    expect(await statementsFor(5)).toBe(await statementsFor(1));
  });
});
