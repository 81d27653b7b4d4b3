import type { Keypair } from '@stellar/stellar-sdk';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { createLot } from '../helpers/lots';
import { appWithTwoPlatforms } from '../helpers/world';

/** A replayed idempotency key answers the first result with its date-time fields as the first answer had them. */
const world = appWithTwoPlatforms();

const gql = (who: Keypair, query: string, variables?: Record<string, unknown>) => world.t.client.as(who).graphql(query, variables);

let buyer: CreatedAccount;
let lotId: string;

beforeAll(async () => {
  buyer = await createAccount(world.t, world.platform);
  lotId = String((await createLot(world.t, world.platform)).id);
});

const twice = async (query: string, variables: Record<string, unknown>) => {
  const first = await gql(buyer.keypair, query, variables);
  const again = await gql(buyer.keypair, query, variables);
  expect(first.body.errors).toBeUndefined();
  expect(again.body).toEqual(first.body);
  return first.body.data;
};

const TIME = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);

it('addStar', async () => {
  const data = await twice('mutation($a: String!, $lot: ID!) { addStar(input: { accountId: $a, lotId: $lot, idempotencyKey: "d-star" }) { watchlistEntry { createdAt createdTime } userErrors { code } } }', { a: buyer.id, lot: lotId });
  expect(data.addStar.watchlistEntry.createdTime).toEqual(TIME);
});

it('addSavedSearch', async () => {
  const data = await twice('mutation($a: String!) { addSavedSearch(input: { accountId: $a, filter: { maker: "BMW" }, idempotencyKey: "d-search" }) { savedSearch { id createdTime } userErrors { code } } }', { a: buyer.id });
  expect(data.addSavedSearch.savedSearch.createdTime).toEqual(TIME);
});

it('postMessage', async () => {
  const data = await twice(
    'mutation($s: String!, $r: String!, $lot: ID!) { postMessage(input: { sender: $s, receiver: $r, lotId: $lot, text: "Hi", idempotencyKey: "d-msg" }) { message { id createdTime readTime } userErrors { code } } }',
    { s: buyer.id, r: world.admin.id, lot: lotId },
  );
  expect(data.postMessage.message).toEqual({ id: expect.any(String), createdTime: TIME, readTime: null });
});
