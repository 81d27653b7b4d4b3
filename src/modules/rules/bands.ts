import { Money } from '../../core/money';
import type { Band } from './rules.model';

/** The band a price falls in: the first whose `upTo` it does not exceed, else the last. */
export function bandOf<B extends Band>(bands: readonly B[], price: Money): B {
  return bands.find((b) => b.upTo === null || price.lte(new Money(b.upTo))) ?? bands[bands.length - 1];
}
