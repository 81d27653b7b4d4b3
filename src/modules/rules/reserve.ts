import { invalid } from '../../core/errors';
import type { Money } from '../../core/money';
import type { Lot } from '../lots/lots.entity';

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
