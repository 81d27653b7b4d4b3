import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { conflict, forbidden, invalid, notFound, type ErrorSource } from '../../core/errors';
import { formatMoney } from '../../core/money';
import { integerId } from '../../core/ids';
import { managesLot } from '../../core/policies';
import { Lot, LotType, hasEnded, isClosed } from '../lots';
import { Deposit, DepositState, Participant, ParticipantState } from './trading.entity';

/**
 * Rules and lookups shared by the trading services. Reads inside a
 * transaction refresh what the request's entity manager may already hold: the transaction's
 * fork starts from its identity map, and a row read before the lock may have changed since.
 */

/** Participants still in the running: their deposit is settled or awaited, nothing is decided. */
export const OPEN_STATES = [ParticipantState.Pending, ParticipantState.DepositPending];
export const WINNER_STATES = [ParticipantState.Winner, ParticipantState.BuyNowWinner];

/** The id of the resource an input names in `field`: 400 when it is absent or not an integer. */
export function requireId(value: unknown, field: string): string {
  const id = integerId(value);
  if (id !== null) return id;
  const missing = value === undefined || value === null;
  throw invalid(missing ? 'missing_field' : 'invalid_field', missing ? 'the id is required' : 'the id must be an integer-valued string', { field });
}

/** The participant of a lot with this account id; 404 when the account takes no part in the lot. */
export async function findParticipant(em: EntityManager, lotId: string, accountId: string): Promise<Participant> {
  const participant = await em.findOne(Participant, { lotId, accountId }, { refresh: true });
  if (!participant) throw notFound('participant_not_found', 'this account is no participant of the lot');
  return participant;
}

/** Choose winner, reject, close, winner details: the lot's organizer or staff of its publisher. */
export function requireManager(ctx: RequestContext, lot: Lot, action: string): void {
  if (!managesLot(ctx.caller, lot)) throw forbidden('not_allowed', `only the lot's organizer or staff of its publisher may ${action}`);
}

/** Lots of the external sources are read-only in this interface. */
export function requireTradable(lot: Lot): void {
  if (lot.lotType === LotType.PartnerA || lot.lotType === LotType.PartnerB) {
    throw invalid('lot_read_only', 'lots of an external source are read-only');
  }
}

/** A closed lot (sold or finished) takes no participation, winner choice or buy now. */
export function requireOpen(lot: Lot): void {
  if (isClosed(lot)) throw invalid('lot_closed', 'the lot is closed');
}

export function requireNoWinner(lot: Lot): void {
  if (lot.winnerId) throw invalid('lot_has_winner', 'the lot already has a winner');
}

export function requireNotEnded(lot: Lot, now = new Date()): void {
  if (hasEnded(lot, now)) throw invalid('lot_ended', 'the lot has ended');
}

export const supportsBuyNow = (lot: Lot) => lot.buyNowPrice.gt(0);

/**
 * Buy now sells at the buy-now price, so it stays open only while the bids are below it: once the
 * highest bid reaches it, the bidding has made the price and buying now would undercut the leader.
 * The caller holds the lot row locked against bid rounds, so the highest bid read is the last.
 */
export function requireBidsBelowBuyNow(lot: Lot, source?: ErrorSource): void {
  if (lot.highestBid && lot.highestBid.gte(lot.buyNowPrice)) {
    throw conflict('buy_now_price_reached', `the highest bid (${formatMoney(lot.highestBid)}) has reached the buy-now price (${formatMoney(lot.buyNowPrice)})`, source);
  }
}

/**
 * Every open participant of the lot but `keep` loses: state lost, and a paid deposit goes back
 * (state returned). Returns the participants that lost and the deposits returned.
 */
export async function settleLosers(em: EntityManager, lotId: string, keep: string | null): Promise<{ lost: Participant[]; returned: Deposit[] }> {
  const lost = await em.find(Participant, { lotId, state: { $in: OPEN_STATES }, ...(keep === null ? {} : { id: { $ne: keep } }) }, { orderBy: { id: 'asc' }, refresh: true });
  lost.forEach((p) => (p.state = ParticipantState.Lost));
  const returned = await returnPaidDeposits(em, lost.map((p) => p.id));
  return { lost, returned };
}

/** The paid deposits of these participants go back (state returned). */
export async function returnPaidDeposits(em: EntityManager, participantIds: string[]): Promise<Deposit[]> {
  if (!participantIds.length) return [];
  const deposits = await em.find(Deposit, { participantId: { $in: participantIds }, state: DepositState.Paid }, { orderBy: { id: 'asc' }, refresh: true });
  deposits.forEach((d) => (d.state = DepositState.Returned));
  return deposits;
}
