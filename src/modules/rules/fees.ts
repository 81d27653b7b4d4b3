import { Money } from '../../core/money';
import { bandOf } from './bands';
import type { DepositRule, FeeBand } from './rules.model';

/** The buyer's fee on a price: its band's fixed amount plus its percentage, to the cent; 0 without a schedule. */
export function buyerFee(schedule: readonly FeeBand[] | null, price: Money): Money {
  if (!schedule) return new Money(0);
  const band = bandOf(schedule, price);
  return new Money(band.fixed).plus(price.times(band.percent).dividedBy(100)).toDecimalPlaces(2);
}

/** The deposit a rule asks of a lot with this start price. */
export function depositFor(rule: DepositRule, startPrice: Money): Money {
  if ('fixed' in rule) return new Money(rule.fixed);
  const share = startPrice.times(rule.percent).dividedBy(100).toDecimalPlaces(2);
  return Money.max(share, new Money(rule.floor));
}

/**
 * The first band of a schedule whose lowest price costs less in total (price plus fee) than the
 * highest price of the band before it, with the totals at both; null when the total never falls
 * as the price rises. Inside a band the total rises with the price (fixed and percent are
 * not negative), so a band's first cent is the only place where it can fall.
 */
export function totalFallsAt(schedule: readonly FeeBand[]): { band: number; top: Money; next: Money } | null {
  const total = (price: Money) => price.plus(buyerFee(schedule, price));
  for (let band = 1; band < schedule.length; band++) {
    const upTo = schedule[band - 1].upTo;
    if (upTo === null) return null;
    const top = new Money(upTo);
    const next = top.plus('0.01');
    if (total(next).lt(total(top))) return { band, top: total(top), next: total(next) };
  }
  return null;
}
