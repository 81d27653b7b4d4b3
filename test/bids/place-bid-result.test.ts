import { createLot } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';
import { bid, setRules } from '../rules/rules.helpers';
import { FREE_LOT, join } from '../trading/trading.helpers';

// What a bid answers: GraphQL's PlaceBidResult carries the lot's end and reserve_met as the bid
// left them; REST answers 204 and the lot (GET /lots/{id}) shows the same.
const world = appWithPlatform({ accounts: 2 });
const PLACE = /* GraphQL */ `mutation ($lot: ID!, $amount: String) { placeBid(lotId: $lot, amount: $amount) { highestBid endTime reserveMet } }`;

async function lotOf(attributes: Record<string, unknown>): Promise<{ id: string; end: number }> {
  const lot = await createLot(world.t, world.platform, attributes);
  for (const a of world.accounts) await join(world.t, a.keypair, lot.id);
  return { id: lot.id, end: lot.endTime.getTime() };
}
const endOf = async (id: string) => Date.parse((await world.t.client.get(`/lots/${id}`)).body.data.attributes.end_time);

describe('the answer of a bid', () => {
  it("carries the lot's end and reserveMet (null without a reserve) in GraphQL", async () => {
    const plain = await lotOf(FREE_LOT);
    const res = await world.t.client.as(world.accounts[0].keypair).graphql(PLACE, { lot: plain.id, amount: '1000' });
    expect(res.body.data.placeBid).toEqual({ highestBid: '1000.00', endTime: expect.any(String), reserveMet: null });
    expect(Date.parse(res.body.data.placeBid.endTime)).toBe(plain.end);

    const reserved = await lotOf({ ...FREE_LOT, reserve_price: '1100' });
    const under = await world.t.client.as(world.accounts[0].keypair).graphql(PLACE, { lot: reserved.id, amount: '1050' });
    expect(under.body.data.placeBid).toMatchObject({ highestBid: '1050.00', reserveMet: false });
    const met = await world.t.client.as(world.accounts[1].keypair).graphql(PLACE, { lot: reserved.id, amount: '1100' });
    expect(met.body.data.placeBid).toMatchObject({ highestBid: '1100.00', reserveMet: true });
  });

  it('carries the end soft close moved to; REST answers 204 and the lot shows the same end', async () => {
    await setRules(world.t, world.platform, { extend_window: 120, extend_by: 180 });
    const lot = await lotOf({ ...FREE_LOT, duration: 60 });
    const before = Date.now();
    const res = await world.t.client.as(world.accounts[0].keypair).graphql(PLACE, { lot: lot.id, amount: '1000' });
    const end = Date.parse(res.body.data.placeBid.endTime);
    expect(end).toBeGreaterThan(lot.end);
    expect(end).toBeGreaterThanOrEqual(before + 180_000);
    expect(await endOf(lot.id)).toBe(end);

    const rest = await bid(world.t, world.accounts[1].keypair, lot.id, { amount: '1050' });
    expect(rest.status).toBe(204);
    expect(rest.text).toBe('');
    expect(await endOf(lot.id)).toBeGreaterThanOrEqual(end);
  });
});
