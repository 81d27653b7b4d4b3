import { conflict, invalid } from '../../core/errors';
import type { Money } from '../../core/money';
import { LotType, type Lot } from './lots.entity';
import { hasEnded, isClosed } from './lots.open';

type Reserved = Pick<Lot, 'reservePrice' | 'highestBid'>;

/**
 * Whether the highest bid reached the lot's reserve price: null for a lot without a reserve, so
 * that such a lot shows nothing beyond the contract; false before the first bid.
 */
export function reserveMet(lot: Reserved): boolean | null {
  if (lot.reservePrice === null) return null;
  return lot.highestBid !== null && lot.highestBid.gte(lot.reservePrice);
}

/** The lot finished because its reserve was not met and nobody chose a winner in time (second-chance offers build on it). */
export const reserveLapsed = (lot: Pick<Lot, 'lapsedAt'>): boolean => lot.lapsedAt !== null;

/**
 * Choosing a winner whose highest bid is under the reserve needs the manager's explicit consent
 * (`acceptBelowReserve`); a buy-now winner pays the buy-now price and needs none.
 */
export function requireReserveAccepted(lot: Pick<Lot, 'reservePrice'>, bid: Money | null, acceptBelowReserve: boolean): void {
  if (lot.reservePrice === null || acceptBelowReserve) return;
  if (bid !== null && bid.gte(lot.reservePrice)) return;
  throw invalid('reserve_not_met', `the participant's highest bid (${bid?.toFixed(2) ?? 'none'}) is under the lot's reserve price; choose it with acceptBelowReserve true`, { field: 'acceptBelowReserve' });
}

/** What is wrong with a reserve for an auction with these prices: it lies above the start price and at most at the buy-now price (when there is one). */
export function reserveFault(reserve: Money, startPrice: Money, buyNowPrice: Money): string | null {
  if (reserve.lte(startPrice)) return 'must exceed start_price';
  if (buyNowPrice.gt(0) && reserve.gt(buyNowPrice)) return 'must not exceed buy_now_price';
  return null;
}

/**
 * A lot's reserve may change (or go, with null) while it is a pending auction that has not ended
 * and has no accepted bid: once bidding began, bidders have seen `reserve_met` and bid by it.
 */
export function requireReserveChangeable(lot: Lot, reserve: Money | null): void {
  if (lot.lotType !== LotType.Eng) throw invalid('invalid_field', 'reservePrice is for auctions only', { field: 'reservePrice' });
  if (isClosed(lot)) throw invalid('lot_closed', 'the lot is closed');
  // The end's notices and the lapse are decided at the end: a reserve set later would escape them.
  if (hasEnded(lot, new Date())) throw invalid('lot_ended', 'the lot has ended');
  if (lot.highestBid !== null) throw conflict('lot_has_bids', 'the reserve price may change only before the first accepted bid');
  const fault = reserve && reserveFault(reserve, lot.startPrice, lot.buyNowPrice);
  if (fault) throw invalid('invalid_field', `reservePrice ${fault}`, { field: 'reservePrice' });
}
