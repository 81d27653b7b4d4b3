import type { Keypair } from '@stellar/stellar-sdk';
import { Lot } from '../../src/modules/lots/lots.entity';
import type { Participant } from '../../src/modules/trading/trading.entity';
import type { TestApp } from '../helpers/app';
import type { TestResponse } from '../helpers/client';
import { createLot } from '../helpers/lots';
import { bid } from '../rules/rules.helpers';
import { chooseWinner, FREE_LOT, join, participantOf, putWinnerDetails } from '../trading/trading.helpers';

export const offerPath = (lotId: string) => `/lots/${lotId}/second_chance_offers`;

export const offer = (t: TestApp, who: Keypair, lotId: string, attributes: Record<string, unknown> = {}): Promise<TestResponse> =>
  t.client.as(who).post(offerPath(lotId), { data: { type: 'second_chance_offers', attributes } });

/** `signedAt` sets the signature's x-date; now by default. */
export const answer = (t: TestApp, who: Keypair, lotId: string, offerId: string, state: string, signedAt?: Date): Promise<TestResponse> =>
  t.client.as(who).patch(`${offerPath(lotId)}/${offerId}`, { data: { type: 'second_chance_offers', id: offerId, attributes: { state } } }, signedAt ? { headers: { 'x-date': signedAt.toISOString() } } : {});

/** Makes an offer and fails loudly unless it answers 201; answers the offer's id. */
export async function offered(t: TestApp, who: Keypair, lotId: string, attributes: Record<string, unknown> = {}): Promise<string> {
  const res = await offer(t, who, lotId, attributes);
  if (res.status !== 201) throw new Error(`offer failed: ${res.status} ${res.text}`);
  return res.body.data.id;
}

export interface WonLot {
  lot: Lot;
  /** The bidders in the order of their bids: the last bid highest and won. */
  bidders: Participant[];
}

/** A new lot the bidders join and bid on in turn, 1000 then 50 more each. */
async function biddenLot(t: TestApp, organizer: Keypair, bidders: Keypair[], lotAttributes: Record<string, unknown>): Promise<Lot> {
  const lot = await createLot(t, organizer, lotAttributes);
  for (const [i, who] of bidders.entries()) {
    await join(t, who, lot.id);
    const res = await bid(t, who, lot.id, { amount: String(1000 + 50 * i) });
    if (res.status !== 204) throw new Error(`bid failed: ${res.status} ${res.text}`);
  }
  return lot;
}

/** A lot (no deposit) the bidders bid on in turn, 1000 then 50 more each; the highest bidder wins. */
export async function wonLot(t: TestApp, organizer: Keypair, bidders: Keypair[], lotAttributes: Record<string, unknown> = FREE_LOT): Promise<WonLot> {
  const lot = await biddenLot(t, organizer, bidders, lotAttributes);
  const winner = await participantOf(t, lot.id, bidders[bidders.length - 1].publicKey());
  const chosen = await chooseWinner(t, organizer, lot.id, winner);
  if (chosen.status !== 200) throw new Error(`winner choice failed: ${chosen.status} ${chosen.text}`);
  return { lot, bidders: await Promise.all(bidders.map((b) => participantOf(t, lot.id, b.publicKey()))) };
}

/** As `wonLot`, then the winner's deal is canceled. */
export async function canceledDeal(t: TestApp, organizer: Keypair, bidders: Keypair[], lotAttributes?: Record<string, unknown>): Promise<WonLot> {
  const won = await wonLot(t, organizer, bidders, lotAttributes);
  const res = await putWinnerDetails(t, organizer, won.lot.id, { deal_canceled: true });
  if (res.status !== 200) throw new Error(`canceling the deal failed: ${res.status} ${res.text}`);
  return won;
}

/**
 * A lot with a reserve of 3000 (no deposit) the bidders bid on in turn, 1000 then 50 more each,
 * ended a minute ago and lapsed by the lapse job's own operation. The organizer's platform must set
 * `reserve_lapse_after` (at most 60 seconds) before the lot is created.
 */
export async function lapsedLot(t: TestApp, organizer: Keypair, bidders: Keypair[], joiners: Keypair[] = []): Promise<Lot> {
  const lot = await biddenLot(t, organizer, bidders, { ...FREE_LOT, reserve_price: '3000' });
  for (const who of joiners) await join(t, who, lot.id);
  const end = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000);
  await t.orm.em.fork().nativeUpdate(Lot, { id: lot.id }, { endTime: end });
  const outcome = await t.app.services.reserve.lapse({ em: t.orm.em.fork() }, { lotId: lot.id, endTime: end.toISOString() });
  if (outcome !== 'lapsed') throw new Error(`the lot did not lapse: ${outcome}`);
  return lot;
}
