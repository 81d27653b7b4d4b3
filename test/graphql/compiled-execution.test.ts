import type { Keypair } from '@stellar/stellar-sdk';
import { startTestApp, type TestApp } from '../helpers/app';
import { createPlatform } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';

let t: TestApp;
let platform: Keypair;

beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
  for (let i = 0; i < 3; i++) await createLot(t, platform, ENG_LOT);
});
afterAll(() => t.close());

/**
 * A document runs through graphql-js twice, then compiled (src/graphql/jit.ts): its fifth answer
 * must be its first, whatever the document holds.
 */
async function answersAlike(query: string, variables: Record<string, unknown> = {}, as: Keypair | null = platform) {
  const answers = [];
  for (let i = 0; i < 5; i++) {
    const res = await (as ? t.client.as(as) : t.client).graphql(query, variables);
    answers.push({ status: res.status, body: res.body });
  }
  for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
  return answers[0];
}

describe('GraphQL operations answer the same once their document is compiled', () => {
  it('a page of lots with nested accounts, lists, aliases, a fragment, __typename and @include/@skip', async () => {
    const query = `query($first: Int!, $withBids: Boolean!, $noOrganizer: Boolean = false) {
      page: lots(first: $first, sort: { key: start_time, desc: true }) {
        nodes { ...LotFields __typename
          organizer @skip(if: $noOrganizer) { id accountType }
          platform { id }
          bids @include(if: $withBids) { id amount bidderId }
          participants { id } }
        pageInfo { hasNextPage endCursor }
      }
      count: lotsCount
    }
    fragment LotFields on Lot { id lotType lotTypeStr currency startPrice highestBid startTime endTime details reservePrice }`;
    const answer = await answersAlike(query, { first: 2, withBids: true });
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.page.nodes).toHaveLength(2);
    expect(answer.body.data.page.nodes[0]).toMatchObject({ __typename: 'Lot', organizer: { id: platform.publicKey() }, bids: [] });
    expect(answer.body.data.count).toBe(3);
    const without = await answersAlike(query, { first: 1, withBids: false, noOrganizer: true });
    expect(without.body.data.page.nodes[0]).not.toHaveProperty('bids');
    expect(without.body.data.page.nodes[0]).not.toHaveProperty('organizer');
  });

  it('a domain error keeps its code, status and path', async () => {
    const answer = await answersAlike('query($id: ID!) { lot(id: $id) { id } }', { id: '999999' });
    expect(answer.body.data).toEqual({ lot: null });
    expect(answer.body.errors).toEqual([expect.objectContaining({ path: ['lot'], extensions: { code: 'lot_not_found', status: 404 } })]);
  });

  it('a mutation refused for an anonymous caller, each time', async () => {
    const answer = await answersAlike('mutation($id: ID!) { updateLot(id: $id, input: { reservePrice: "10" }) { id } }', { id: '1' }, null);
    expect(answer.body.errors[0].extensions).toMatchObject({ code: 'unauthenticated', status: 401 });
  });
});
