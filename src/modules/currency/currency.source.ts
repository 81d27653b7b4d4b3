import type Decimal from 'decimal.js';
import { z } from 'zod';
import { BASE_CURRENCY, isCurrency, parseSourceRate, type Currency } from './currency.input';

/** What a rates source says: units per 1 EUR of the currencies it knows, as of a time. */
export interface RatesDocument {
  asOf: Date;
  rates: Map<Currency, Decimal>;
}

const FETCH_TIMEOUT_MS = 10_000;
const MAX_DOCUMENT_BYTES = 1024 * 1024;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

const documentSchema = z.object({
  base: z.literal(BASE_CURRENCY, { error: `base must be "${BASE_CURRENCY}"` }).optional(),
  date: z.string().optional(),
  rates: z.record(z.string(), z.unknown(), { error: 'rates must be an object of currency codes to numbers' }),
});

export class RatesDocumentError extends Error {
  override name = 'RatesDocumentError';
}

function asOfOf(date: string | undefined, fetchedAt: Date): Date {
  if (date === undefined) return fetchedAt;
  const day = DATE.exec(date);
  const parsed = day ? new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))) : new Date(date);
  const valid = day
    ? parsed.getUTCFullYear() === Number(day[1]) && parsed.getUTCMonth() === Number(day[2]) - 1 && parsed.getUTCDate() === Number(day[3])
    : /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(date) && !Number.isNaN(parsed.getTime());
  if (!valid) throw new RatesDocumentError('date must be YYYY-MM-DD or an RFC 3339 time');
  return parsed;
}

/**
 * Reads the document of the rates source: `{"base": "EUR", "date": "YYYY-MM-DD", "rates":
 * {"USD": 1.08, …}}`. Unknown currencies (and EUR itself) are ignored; a malformed rate of a
 * supported currency rejects the whole document, so that a broken source changes nothing.
 */
export function parseRatesDocument(json: unknown, fetchedAt: Date = new Date()): RatesDocument {
  const parsed = documentSchema.safeParse(json);
  if (!parsed.success) throw new RatesDocumentError(parsed.error.issues.map((i) => i.message).join('; '));
  const rates = new Map<Currency, Decimal>();
  for (const [currency, value] of Object.entries(parsed.data.rates)) {
    if (!isCurrency(currency) || currency === BASE_CURRENCY) continue;
    const rate = parseSourceRate(value);
    if (!rate) throw new RatesDocumentError(`the rate of ${currency} must be a positive number`);
    rates.set(currency, rate);
  }
  if (!rates.size) throw new RatesDocumentError('the document has no rate of a supported currency');
  return { asOf: asOfOf(parsed.data.date, fetchedAt), rates };
}

/** Fetches and reads the rates source; any failure (network, status, body) throws. */
export async function fetchRatesDocument(url: string): Promise<RatesDocument> {
  const res = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!res.ok) throw new RatesDocumentError(`the rates source answered HTTP ${res.status}`);
  const body = Buffer.from(await res.arrayBuffer());
  if (body.length > MAX_DOCUMENT_BYTES) throw new RatesDocumentError('the rates document is larger than 1 MiB');
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    throw new RatesDocumentError('the rates document is not JSON');
  }
  return parseRatesDocument(json);
}
