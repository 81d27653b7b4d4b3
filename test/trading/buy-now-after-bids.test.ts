import type { Keypair } from '@stellar/stellar-sdk';
import { Participant } from '../../src/modules/trading/trading.entity';
import { appWithPlatform } from '../helpers/world';
import { createLot } from '../helpers/lots';
import { codeOf, FREE_LOT, join, participantOf, participate } from './trading.helpers';

/** FREE_LOT: start 1000.00, buy now 5000.00, steps 50 to 500, no deposit. */
const world = appWithPlatform({ accounts: 4 });
const [first, second, buyer, latecomer] = [0, 1, 2, 3].map((i) => () => world.accounts[i].keypair);

async function bidUpTo(lotId: string, last: number): Promise<void> {
  const amounts: number[] = [];
  for (let a = 1000; a < last; a += 500) amounts.push(a);
  amounts.push(last);
  for (const [i, amount] of amounts.entries()) {
    const res = await world.t.client.as(i % 2 ? second() : first()).post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount: String(amount) } } });
    if (res.status !== 204) throw new Error(`bid ${amount} failed: ${res.status} ${res.text}`);
  }
}

async function lotBidUpTo(last: number): Promise<string> {
  const lot = await createLot(world.t, world.platform, FREE_LOT);
  await join(world.t, first(), lot.id);
  await join(world.t, second(), lot.id);
  await join(world.t, buyer(), lot.id);
  await bidUpTo(lot.id, last);
  return lot.id;
}

const restBuyNow = (who: Keypair, lotId: string) => world.t.client.as(who).patch(`/v2/lots/${lotId}/participants/${who.publicKey()}`);
const graphqlBuyNow = (who: Keypair, lotId: string) =>
  world.t.client.as(who).graphql(`mutation($lot: ID!, $account: String!) { requestBuyNow(lotId: $lot, accountId: $account) { requestedBuyNow } }`, { lot: lotId, account: who.publicKey() });

describe('buy now once the highest bid has reached the buy-now price', () => {
  it('answers 409 buy_now_price_reached over REST and GraphQL, and records nothing', async () => {
    const lotId = await lotBidUpTo(5000);
    const rest = await restBuyNow(buyer(), lotId);
    expect([rest.status, codeOf(rest)]).toEqual([409, 'buy_now_price_reached']);
    expect(rest.body.errors[0].detail).toBe('the highest bid (5000.00) has reached the buy-now price (5000.00)');
    const graphql = await graphqlBuyNow(buyer(), lotId);
    expect(graphql.body.errors[0].extensions).toMatchObject({ code: 'buy_now_price_reached', status: 409 });
    expect((await participantOf(world.t, lotId, buyer().publicKey())).requestedBuyNow).toBe(false);
  });

  it('refuses participation with buy_now true alike, naming buy_now over REST and buyNow over GraphQL', async () => {
    const lotId = await lotBidUpTo(5000);
    const rest = await participate(world.t, latecomer(), lotId, { buy_now: true });
    expect([rest.status, codeOf(rest), rest.body.errors[0].source]).toEqual([409, 'buy_now_price_reached', { pointer: '/data/attributes/buy_now' }]);
    const graphql = await world.t.client.as(latecomer()).graphql(`mutation($lot: ID!) { requestParticipation(lotId: $lot, buyNow: true) { id } }`, { lot: lotId });
    expect(graphql.body.errors[0].extensions).toMatchObject({ code: 'buy_now_price_reached', status: 409, errors: [{ code: 'buy_now_price_reached', field: 'buyNow' }] });
    expect(await world.t.orm.em.fork().count(Participant, { lotId, accountId: latecomer().publicKey() })).toBe(0);
    const plain = await participate(world.t, latecomer(), lotId, { buy_now: false });
    expect(plain.status).toBe(204);
  });

  it('is still taken while the highest bid is a cent below the buy-now price, over REST and GraphQL', async () => {
    const restLot = await lotBidUpTo(4999.99);
    expect((await restBuyNow(buyer(), restLot)).status).toBe(200);
    const graphqlLot = await lotBidUpTo(4999.99);
    const graphql = await graphqlBuyNow(buyer(), graphqlLot);
    expect(graphql.body).toEqual({ data: { requestBuyNow: { requestedBuyNow: true } } });
  });
});
