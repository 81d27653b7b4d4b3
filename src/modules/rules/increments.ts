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

/**
 * The first band of the table in which a lot with these own steps could take no raise: one it can
 * reach (the band of its start price or a later one, since a first bid may be any amount from the
 * start price up) that leaves the lot's own max_step in force and asks a min_step above it. Null
 * when every band it can reach takes a raise.
 */
export function unbiddableBand(increments: readonly IncrementBand[], lot: Steps & { startPrice: Money }): IncrementBand | null {
  const from = increments.indexOf(bandOf(increments, lot.startPrice));
  return increments.slice(from).find((band) => band.maxStep === null && new Money(band.minStep).gt(lot.maxStep)) ?? null;
}
