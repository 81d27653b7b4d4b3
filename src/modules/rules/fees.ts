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
