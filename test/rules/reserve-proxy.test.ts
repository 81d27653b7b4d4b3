import { createLot } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';
import { FREE_LOT, join } from '../trading/trading.helpers';
import { bid } from './rules.helpers';

// A max bid whose maximum reaches the hidden reserve bids at least the reserve (as eBay Motors
// does), so that a lot never lapses under its reserve while a bidder was willing to pay it.
const world = appWithPlatform({ accounts: 3 });
const RESERVED = { ...FREE_LOT, reserve_price: '1550' };
const PLACE = /* GraphQL */ `mutation ($lot: ID!, $amount: String, $max: String) { placeBid(lotId: $lot, amount: $amount, maxAmount: $max) { highestBid reserveMet bids { amount placedByProxy } } }`;

async function reservedLot(): Promise<string> {
  const lot = await createLot(world.t, world.platform, RESERVED);
  for (const a of world.accounts) await join(world.t, a.keypair, lot.id);
  return lot.id;
}
const shown = async (lotId: string) => {
  const { highest_bid, reserve_met } = (await world.t.client.get(`/lots/${lotId}`)).body.data.attributes;
  return { highest_bid, reserve_met };
};
/** The amounts of the lot's accepted bids, in order, from its public bid log. */
const history = async (lotId: string) => (await world.t.client.get(`/lots/${lotId}/bid_log`)).body.data.attributes.entries.map((e: any) => e.amount);

describe('a max bid above the reserve', () => {
  it('outbids a lower bid at the reserve, not at the next step (REST), and then raises by the steps as before', async () => {
    const lot = await reservedLot();
    const [a, b] = world.accounts;
    expect((await bid(world.t, a.keypair, lot, { amount: '1000' })).status).toBe(204);
    expect((await bid(world.t, b.keypair, lot, { max_amount: '3000' })).status).toBe(204);
    expect(await shown(lot)).toEqual({ highest_bid: '1550.00', reserve_met: true });
    expect((await bid(world.t, a.keypair, lot, { amount: '1600' })).status).toBe(204);
    expect(await shown(lot)).toEqual({ highest_bid: '1650.00', reserve_met: true });
  });

  it('places a first max bid at the reserve, and takes a rival max to the reserve too (GraphQL)', async () => {
    const lot = await reservedLot();
    const [a, b] = world.accounts;
    const first = await world.t.client.as(a.keypair).graphql(PLACE, { lot, max: '3000' });
    expect(first.body.data.placeBid).toEqual({ highestBid: '1550.00', reserveMet: true, bids: [{ amount: '1550.00', placedByProxy: false }] });
    // b's max of 2,000 beats nobody: a answers it at 2,050.
    const rival = await world.t.client.as(b.keypair).graphql(PLACE, { lot, max: '2000' });
    expect(rival.body.data.placeBid).toEqual({
      highestBid: '2050.00',
      reserveMet: true,
      bids: [
        { amount: '2000.00', placedByProxy: false },
        { amount: '2050.00', placedByProxy: true },
      ],
    });
    expect(await history(lot)).toEqual(['1550.00', '2000.00', '2050.00']);
  });

  it('raises a leader that sets a max reaching the reserve to the reserve, and leaves a max under it where it was', async () => {
    const lot = await reservedLot();
    const [a, b, c] = world.accounts;
    expect((await bid(world.t, a.keypair, lot, { amount: '1000' })).status).toBe(204);
    const raised = await world.t.client.as(a.keypair).graphql(PLACE, { lot, max: '1550' });
    expect(raised.body.data.placeBid).toEqual({ highestBid: '1550.00', reserveMet: true, bids: [{ amount: '1550.00', placedByProxy: false }] });

    const under = await reservedLot();
    expect((await bid(world.t, b.keypair, under, { max_amount: '1549.99' })).status).toBe(204);
    expect(await shown(under)).toEqual({ highest_bid: '1000.00', reserve_met: false });
    // c's max reaches it: beating b's max by a step (1,599.99) already passes the reserve.
    expect((await bid(world.t, c.keypair, under, { max_amount: '1600' })).status).toBe(204);
    expect(await history(under)).toEqual(['1000.00', '1549.99', '1599.99']);

    const far = await reservedLot();
    expect((await bid(world.t, b.keypair, far, { max_amount: '1200' })).status).toBe(204);
    // Beating b's max by a step would be 1,250: c's max reaches the reserve, so c leads there, b's last attempt recorded before.
    expect((await bid(world.t, c.keypair, far, { max_amount: '1600' })).status).toBe(204);
    expect(await history(far)).toEqual(['1000.00', '1200.00', '1550.00']);
    expect(await shown(far)).toEqual({ highest_bid: '1550.00', reserve_met: true });
  });
});
