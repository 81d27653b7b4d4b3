import { formatMoney, type Money } from '../../core/money';
import type { BuyingPower } from './buying-power.service';

const amount = (m: Money | null) => (m === null ? null : formatMoney(m));

/** Buying power with its amounts as two-decimal strings, as both edges show it. */
export const formattedBuyingPower = (p: BuyingPower) => ({
  ...p,
  deposits: formatMoney(p.deposits),
  limit: amount(p.limit),
  inUse: formatMoney(p.inUse),
  left: amount(p.left),
});
