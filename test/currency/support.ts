import Decimal from 'decimal.js';

/** The shipped defaults, units per 1 EUR (Migration20261122020000Catalogue). */
export const DEFAULT_RATES: Record<string, string> = { EUR: '1', USD: '1.08', GEL: '2.93', UAH: '44.9', BTC: '0.0000155' };

const Exact = Decimal.clone({ precision: 40 });

/** The expected converted amount, computed in decimal: through EUR, rounded half-up to two places. */
export function expectedConversion(amount: string, from: string, to: string, rates: Record<string, string> = DEFAULT_RATES): string {
  const value = new Exact(amount);
  const converted = from === to ? value : value.div(rates[from]).mul(rates[to]);
  return converted.toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2);
}
