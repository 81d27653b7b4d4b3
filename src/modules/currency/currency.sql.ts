import type Decimal from 'decimal.js';
import { Money } from '../../core/money';
import type { Rows } from '../../db/raw';
import { sql, type Sql } from '../../db/sql';

/** Every stored rate: read beside another statement in one round trip (the lot index). */
export const RATES_QUERY = sql`select currency, units_per_eur from currency_rates`;

export const ratesOfRows = (rows: Rows): Map<string, Decimal> => new Map(rows.map((r) => [r.currency as string, new Money(r.units_per_eur as string)]));

/**
 * Copies the rates of `currencies` onto their lots, whose stored prices in EUR (generated
 * columns) follow: one statement, in the transaction that changed the rates, so that no listing
 * ever sorts by a rate that is not the stored one. Lots already at the rate are not rewritten.
 */
export const repriceLots = (currencies: readonly string[]): Sql =>
  sql`update lots l set units_per_eur = r.units_per_eur from currency_rates r
       where r.currency = l.currency and r.currency = any (${sql.array(currencies, 'text')}) and l.units_per_eur is distinct from r.units_per_eur`;

/**
 * The stored rates of `currencies`, locked until the transaction ends: what they were before the
 * change about to be written (the saved searches' price-fall alerts compare before and after).
 */
export const ratesBefore = (currencies: readonly string[]): Sql =>
  sql`select currency, units_per_eur::text from currency_rates where currency = any (${sql.array(currencies, 'text')}) for update`;
