import Decimal from 'decimal.js';

/** Money is decimal with two places; amounts travel as strings ("110.00"). */
export const Money = Decimal.clone({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export type Money = Decimal;

const MONEY_INPUT = /^\d{1,18}(\.\d{1,2})?$/;
/** numeric(20,2) holds 18 digits before the point. */
const MONEY_CEILING = new Money('1e18');

/** Parses a price as accepted on input ("110", "110.5", "110.50"); null when malformed. */
export function parseMoney(value: unknown): Decimal | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null;
    const d = new Money(value);
    return d.decimalPlaces() <= 2 && d.lt(MONEY_CEILING) ? d : null;
  }
  if (typeof value !== 'string' || !MONEY_INPUT.test(value)) return null;
  return new Money(value);
}

export function formatMoney(value: Decimal.Value): string {
  return new Money(value).toFixed(2, Decimal.ROUND_HALF_UP);
}
