import type Decimal from 'decimal.js';
import type { RequestContext } from '../../core/context';
import { forbidden, invalid, unauthenticated } from '../../core/errors';
import { seesFullAccountSql } from '../../core/policies';
import { keysetClauses } from '../../db/keyset';
import { rawQuery, type Rows } from '../../db/raw';
import { sql, type Sql } from '../../db/sql';
import { keysetPage, planKeyset } from '../../core/cursors';
import type { KeysetPage } from '../../core/page';
import { RATES_QUERY, ratesOfRows } from '../currency';
import type { LotFilter } from './lots.filter';
import type { LotPage } from './lots.input';
import type { ListedLot } from './lots.entity';
import { aggregateOfRows, aggregateSql, type LotGroup, type LotsAggregate } from './lots.aggregate';
import { embeddedColumns, embeddedOfRows, type Embeddable, type Embedded } from './lots.embedded';
import { LOT_COLUMNS, lotsOfRows } from './lots.rows';
import { lotConditions, sortExpression } from './lots.sql';

/** Prices are compared in this currency when the filter names none. */
export const DEFAULT_PRICE_CURRENCY = 'USD';

/** The filters that name an account's own business, with the names the messages give them. */
const PRIVATE_FILTERS = [
  ['starsOf', 'filter[stars_of]'],
  ['participant', 'filter[participant]'],
] as const;

/** The stored rates; a currency without one is refused (its prices would convert to nothing). */
function checkedRates(currency: string, rows: Rows): Map<string, Decimal> {
  const rates = ratesOfRows(rows);
  if (!rates.has(currency)) throw invalid('unknown_currency', `no rate for ${currency}`, { field: 'filter.currency' });
  return rates;
}

/** A page of lots, and the rates to show their prices with (none when they show in their own currencies): read in one round trip. */
export interface ListedPage extends KeysetPage<ListedLot> {
  rates: Map<string, Decimal>;
  embedded: Embedded;
}

/**
 * The index and count of lots: one SQL statement each, every value a parameter, sent through the
 * driver beside the rates (bench/lots.mjs: the ORM's query building and hydration cost several
 * times the statement).
 */
export class LotListing {
  /** `embed`: the relations the page's own statement reads beside its lots (lots.embedded.ts). */
  async page(ctx: RequestContext, req: LotPage, embed: ReadonlySet<Embeddable>): Promise<ListedPage> {
    await this.authorize(ctx, req.filter);
    const { expr, kind } = sortExpression(req.sort.key);
    const keyset = { key: req.sort.key, desc: req.sort.desc, cursor: req.page.cursor, limit: req.page.limit, fromEnd: req.page.fromEnd };
    const plan = planKeyset(keyset);
    const page = keysetClauses(expr, kind, sql`l.id`, plan);
    const { rates, rows } = await this.read(ctx, req.filter, (where) =>
      sql`select ${LOT_COLUMNS}, ${page.sortValue} as sort_value${embeddedColumns(ctx.em, embed)} from lots l
       where ${where} and ${page.beyond} order by ${page.orderBy} limit ${plan.take}`,
    );
    const lots = lotsOfRows(rows);
    const positions = new Map(lots.map((lot, i) => [lot, { value: rows[i].sort_value as string, id: lot.id }]));
    const shown = keysetPage(keyset, plan, lots, (lot) => positions.get(lot) as { value: string; id: string });
    return { ...shown, rates, embedded: embeddedOfRows(ctx.em, rows.slice(0, shown.items.length), embed) };
  }

  async count(ctx: RequestContext, filter: LotFilter): Promise<number> {
    await this.authorize(ctx, filter);
    const { rows } = await this.read(ctx, filter, (where) => sql`select count(*) as n from lots l where ${where}`);
    return Number(rows[0].n);
  }

  /**
   * The count and price sums of the lots `count` counts, in `currency`, and per group with `groupBy`:
   * the same conditions, so that an aggregate counts exactly what the index lists to its caller.
   */
  async aggregate(ctx: RequestContext, filter: LotFilter, currency: string, groupBy: LotGroup | undefined): Promise<LotsAggregate> {
    await this.authorize(ctx, filter);
    const { rates, rows } = await this.read(ctx, filter, (where) => aggregateSql(where, currency, groupBy), true);
    if (!rates.has(currency)) throw invalid('unknown_currency', `no rate for ${currency}`, { field: 'currency' });
    return aggregateOfRows(rows, currency, groupBy);
  }

  /**
   * The rates and the rows of `statement` under the filter's conditions. Without filter[currency],
   * filter[price] and `withRates` no price is converted or compared, and the rates are not read. Without
   * filter[price] they travel in one round trip. With it, the rates are read first: the price's
   * bounds in EUR are then values, which the planner weighs against the column's statistics (from
   * a subquery it guessed a few rows, and sorted 30,000 lots by start time).
   */
  private async read(ctx: RequestContext, filter: LotFilter, statement: (where: Sql) => Sql, withRates = false): Promise<{ rates: Map<string, Decimal>; rows: Rows }> {
    const currency = filter.currency ?? DEFAULT_PRICE_CURRENCY;
    if (filter.tab && !ctx.caller) throw unauthenticated('unauthenticated', 'filter[tab] needs a signature or bearer token');
    const filtered = (targetRate?: string) => {
      const { where, planPerValues } = lotConditions(filter, { caller: ctx.caller, targetRate, now: new Date() });
      return { ...sql.render(statement(where)), customPlan: planPerValues };
    };
    if (filter.currency === undefined && !filter.price && !withRates) {
      const [{ rows }] = await rawQuery(ctx.em, filtered());
      return { rates: new Map(), rows };
    }
    if (!filter.price) {
      const [stored, { rows }] = await rawQuery(ctx.em, sql.render(RATES_QUERY), filtered());
      return { rates: checkedRates(currency, stored.rows), rows };
    }
    const [stored] = await rawQuery(ctx.em, sql.render(RATES_QUERY));
    const rates = checkedRates(currency, stored.rows);
    const [{ rows }] = await rawQuery(ctx.em, filtered((rates.get(currency) as Decimal).toString()));
    return { rates, rows };
  }

  /**
   * A watchlist and the lots an account takes part in are its own business: only the account
   * itself and staff of its platform may filter by them.
   */
  private async authorize(ctx: RequestContext, filter: LotFilter): Promise<void> {
    const named = PRIVATE_FILTERS.filter(([key]) => filter[key] !== undefined && filter[key] !== ctx.caller?.accountId);
    if (!named.length) return;
    if (!ctx.caller) throw unauthenticated('unauthenticated', `${named[0][1]} needs a signature or bearer token`);
    const ids = sql.array([...new Set(named.map(([key]) => filter[key] as string))], 'text');
    const [{ rows }] = await rawQuery(ctx.em, sql.render(sql`select a.id from accounts a where a.id = any (${ids}) and ${seesFullAccountSql(ctx.caller, sql`a`)}`));
    const seen = new Set(rows.map((r) => r.id as string));
    const refused = named.find(([key]) => !seen.has(filter[key] as string));
    if (refused) throw forbidden('not_allowed', `${refused[1]} may name only the caller or an account of the caller's platforms`);
  }
}
