import type { Keypair } from '@stellar/stellar-sdk';
import { createLot } from '../helpers/lots';
import { appWithTwoPlatforms } from '../helpers/world';

/**
 * The input a key stands for tells null from absent, at every depth: a call that clears a field is
 * another call than one that leaves it, so the key sent with the other is refused and runs nothing.
 */
const world = appWithTwoPlatforms();

const gql = (who: Keypair, query: string, variables?: Record<string, unknown>) => world.t.client.as(who).graphql(query, variables);
const REUSED = [{ code: 'IDEMPOTENCY_KEY_REUSED', field: 'idempotencyKey' }];

it("refuses an editLot key sent again without the field its first call cleared, and keeps the lot's reserve", async () => {
  const lotId = String((await createLot(world.t, world.platform)).id);
  const EDIT = (change: string) => `mutation($lot: ID!) { editLot(input: { id: $lot, ${change}idempotencyKey: "null-1" }) { lotId userErrors { code field } } }`;
  await gql(world.platform, `mutation($lot: ID!) { editLot(input: { id: $lot, reservePrice: "5000" }) { userErrors { code } } }`, { lot: lotId });
  const cleared = await gql(world.platform, EDIT('reservePrice: null, '), { lot: lotId });
  expect(cleared.body.data.editLot).toEqual({ lotId, userErrors: [] });
  const absent = await gql(world.platform, EDIT(''), { lot: lotId });
  expect(absent.body.data.editLot).toEqual({ lotId: null, userErrors: REUSED });
});

it('refuses an editPlatformRules key sent again with a nested null left out', async () => {
  const id = world.platform.publicKey();
  const EDIT = (band: string) => `mutation($id: ID!) { editPlatformRules(input: { platformId: $id, increments: [{ ${band}minStep: "10" }], idempotencyKey: "null-2" }) { platformRules { version } userErrors { code field } } }`;
  const first = await gql(world.platform, EDIT('upTo: null, '), { id });
  expect(first.body.data.editPlatformRules.userErrors).toEqual([]);
  const absent = await gql(world.platform, EDIT(''), { id });
  expect(absent.body.data.editPlatformRules).toEqual({ platformRules: null, userErrors: REUSED });
  const same = await gql(world.platform, EDIT('upTo: null, '), { id });
  expect(same.body.data.editPlatformRules).toEqual(first.body.data.editPlatformRules);
});
