import Decimal from 'decimal.js';
import { Money, CURRENCIES } from '../../core/money';

export type Currency = (typeof CURRENCIES)[number];

/** The currency every rate is stored against; its own rate is 1 and cannot change. */
export const BASE_CURRENCY = 'EUR';

/** Most items of one bulk conversion (POST /convert, GraphQL convertMany). */
export const MAX_BULK_ITEMS = 100;

export const isCurrency = (value: unknown): value is Currency =>
  typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value);

/** A rate as given by the master account: a positive decimal that fits numeric(30,12). */
const RATE_INPUT = /^\d{1,18}(\.\d{1,12})?$/;
const RATE_CEILING = new Money('1e18');
const RATE_SCALE = 12;

/** Parses a rate given by the master account ("1.08"); null unless positive with at most 12 decimals. */
export function parseRateInput(value: unknown): Decimal | null {
  if (typeof value !== 'string' || !RATE_INPUT.test(value)) return null;
  const rate = new Money(value);
  return rate.gt(0) ? rate : null;
}

/**
 * Parses a rate from the rates source (a JSON number or a decimal string): rounded half-up to
 * the 12 decimals the table keeps; null unless it is still positive and fits.
 */
export function parseSourceRate(value: unknown): Decimal | null {
  let rate: Decimal;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    rate = new Money(value);
  } else if (typeof value === 'string' && /^\d{1,18}(\.\d+)?$/.test(value)) {
    rate = new Money(value);
  } else {
    return null;
  }
  rate = rate.toDecimalPlaces(RATE_SCALE, Decimal.ROUND_HALF_UP);
  return rate.gt(0) && rate.lt(RATE_CEILING) ? rate : null;
}

/** A stored rate as shown: plain notation without trailing zeros ("1.08", "0.0000155"). */
export const formatRate = (value: Decimal.Value): string => new Money(value).toFixed();
