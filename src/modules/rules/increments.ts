import { Money } from '../../core/money';
import { bandOf } from './bands';
import type { IncrementBand } from './rules.model';

/** The steps allowed above a price: its band's, else the lot's own. */
export interface Steps {
  minStep: Money;
  maxStep: Money;
}

/**
 * The steps above `price` for a lot with these increments (null: the lot's own steps). The band
 * is the one of the price being raised, as on the largest vehicle auction sites.
 */
export function stepsAbove(increments: readonly IncrementBand[] | null, own: Steps, price: Money): Steps {
  if (!increments) return own;
  const band = bandOf(increments, price);
  return { minStep: new Money(band.minStep), maxStep: band.maxStep === null ? own.maxStep : new Money(band.maxStep) };
}

/**
 * The steps a lot shows (`min_step`, `max_step`): those of the band its next raise is checked
 * against, the highest bid's (the start price's before the first bid), so that what it shows is
 * what the bid round holds a bid to. Without a table, the lot's own.
 */
export function shownSteps(lot: Steps & { startPrice: Money; highestBid: Money | null }, increments: readonly IncrementBand[] | null): Steps {
  return stepsAbove(increments, lot, lot.highestBid ?? lot.startPrice);
}
