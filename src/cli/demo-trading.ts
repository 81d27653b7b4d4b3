import type { Api } from './api';
import type { Cast, Member } from './demo-cast';
import type { DemoLot } from './demo-lots';
import { expectStatus, many } from './resources';

export interface PlacedBid {
  lot: DemoLot;
  bidder: Member;
  amount: string;
}

/** The bids on the first auctions, alternately by alice and bob, as multiples of min_step above the start price. */
const BID_STEPS = [
  [0, 2, 5, 8],
  [0, 3, 4],
  [0, 1],
];

async function participate(api: Api, who: Member, lot: DemoLot): Promise<void> {
  const res = await api.as(who.keypair).json('POST', `/lots/${lot.id}/participation_requests`, {
    data: { type: 'participation_requests', attributes: { lot_id: Number(lot.id), buy_now: false } },
  });
  expectStatus(res, 204, `${who.name} joining lot ${lot.id}`);
}

/** Staff mark every pending deposit of the lot paid, which lets its participants bid. */
async function settleDeposits(staff: Api, lot: DemoLot): Promise<void> {
  const pending = many(expectStatus(await staff.json('GET', `/deposits?filter[lot_id]=${lot.id}&filter[state]=pending`), 200, 'listing deposits'));
  for (const deposit of pending) {
    const res = await staff.json('PATCH', `/deposits/${deposit.id}`, { data: { type: 'deposits', id: deposit.id, attributes: { state: 'paid' } } });
    expectStatus(res, 200, `marking deposit ${deposit.id} paid`);
  }
}

export const amountAbove = (lot: DemoLot, price: string, steps: number) => (Number(price) + steps * Number(lot.vehicle.auction?.min_step)).toFixed(2);

/**
 * alice and bob join the first four auctions, alice also the fifth; their deposits are paid;
 * then they bid on the first three. Returns the bids in the order placed.
 */
export async function trade(api: Api, staff: Api, cast: Cast, lots: DemoLot[]): Promise<PlacedBid[]> {
  const auctions = lots.filter((lot) => lot.vehicle.auction);
  for (const [index, lot] of auctions.entries()) {
    for (const who of index < 4 ? [cast.alice, cast.bob] : index === 4 ? [cast.alice] : []) await participate(api, who, lot);
    await settleDeposits(staff, lot);
  }
  const placed: PlacedBid[] = [];
  for (const [index, steps] of BID_STEPS.entries()) {
    const lot = auctions[index];
    for (const [turn, step] of steps.entries()) {
      const bidder = turn % 2 === 0 ? cast.alice : cast.bob;
      const amount = amountAbove(lot, lot.vehicle.price, step);
      const res = await api.as(bidder.keypair).json('POST', `/lots/${lot.id}/bid_requests`, { data: { type: 'bid_requests', attributes: { lot_id: Number(lot.id), amount } } });
      expectStatus(res, 204, `${bidder.name} bidding ${amount} on lot ${lot.id}`);
      placed.push({ lot, bidder, amount });
    }
  }
  return placed;
}

/**
 * Staff choose the leader of the lot's last bid as its winner and close the lot sold, which
 * signs its bid log's head (docs/bid-log.md): the demo's lot for `npm run verify-bids`.
 */
export async function closeSold(staff: Api, lot: DemoLot, leader: Member): Promise<void> {
  const shown = expectStatus(await staff.json('GET', `/lots/${lot.id}?include=participants`), 200, `reading lot ${lot.id}`).body as {
    included?: { type: string; id: string; attributes: { account_id: string } }[];
  };
  const participant = (shown.included ?? []).find((r) => r.type === 'participants' && r.attributes.account_id === leader.keypair.publicKey());
  if (!participant) throw new Error(`${leader.name} is no participant of lot ${lot.id}`);
  const winner = { data: { type: 'participants', id: participant.id, attributes: { buy_now: false, account_id: participant.attributes.account_id } } };
  expectStatus(await staff.json('POST', `/v2/lots/${lot.id}/winners`, winner), 200, `choosing the winner of lot ${lot.id}`);
  expectStatus(await staff.json('POST', '/lots/closed', { data: { type: 'lots', id: lot.id, attributes: { state: 'sold' } } }), 200, `closing lot ${lot.id}`);
}
