import type Decimal from 'decimal.js';
import type { RequestContext } from '../../core/context';
import { forbidden, invalid, unauthenticated } from '../../core/errors';
import { isStaffOf } from '../../core/policies';
import { Account } from '../accounts/accounts.entity';
import { keysetPage, planKeyset, type KeysetPage } from '../../rest/pagination';
import { Lot } from './lots.entity';
import type { LotFilter } from './lots.filter';
import type { LotPage } from './lots.input';
import { lotConditions, sortExpression, type Sql } from './lots.sql';

/** Prices are compared in this currency when the filter names none (PROTOCOL.md §9). */
export const DEFAULT_PRICE_CURRENCY = 'USD';

/** The filters that name an account's own business, with the names the messages give them. */
const PRIVATE_FILTERS = [
  ['starsOf', 'filter[stars_of]'],
  ['participant', 'filter[participant]'],
] as const;

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const DECIMAL = /^-?\d{1,20}(\.\d{1,2})?$/;

/** The index and count of lots: one SQL statement each, every value a parameter. */
export class LotListing {
  async page(ctx: RequestContext, req: LotPage, rates: Map<string, Decimal>): Promise<KeysetPage<Lot>> {
    await this.authorize(ctx, req.filter);
    const where = this.where(ctx, req.filter, rates);
    const { expr, rated } = sortExpression(req.sort.key);
    const exprParams = rated ? [where.rate] : [];
    const keyset = { key: req.sort.key, desc: req.sort.desc, cursor: req.page.cursor, limit: req.page.limit };
    const plan = planKeyset(keyset);
    const dir = plan.desc ? 'desc' : 'asc';
    const params: unknown[] = [...exprParams, ...where.sql.params];
    let after = '';
    if (plan.after) {
      const cast = rated ? 'numeric' : 'timestamptz';
      if (typeof plan.after.value !== 'string' || !(rated ? DECIMAL : TIMESTAMP).test(plan.after.value) || !/^\d{1,18}$/.test(plan.after.id)) {
        throw invalid('invalid_cursor', 'page[cursor] is not a cursor of this listing', { field: 'page.cursor' });
      }
      after = ` and (${expr}, l.id) ${plan.desc ? '<' : '>'} (?::${cast}, ?::bigint)`;
      params.push(...exprParams, plan.after.value, plan.after.id);
    }
    params.push(...exprParams, plan.take);
    // Cursor values keep the database's full precision (microseconds), so ties never repeat a row.
    const sortValue = rated ? `(${expr})::text` : `to_char(${expr} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
    const rows = await ctx.em.getConnection().execute<Record<string, unknown>[]>(
      `select l.*, ${sortValue} as sort_value from lots l join currency_rates rf on rf.currency = l.currency
       where ${where.sql.text}${after} order by ${expr} ${dir}, l.id ${dir} limit ?`,
      params,
    );
    const positions = new Map<Lot, { value: string; id: string }>();
    const lots = rows.map((row) => {
      const { sort_value: value, ...columns } = row;
      const lot = ctx.em.map(Lot, columns);
      positions.set(lot, { value: value as string, id: lot.id });
      return lot;
    });
    return keysetPage(keyset, plan, lots, (lot) => positions.get(lot) as { value: string; id: string });
  }

  async count(ctx: RequestContext, filter: LotFilter, rates: Map<string, Decimal>): Promise<number> {
    await this.authorize(ctx, filter);
    const where = this.where(ctx, filter, rates);
    const [row] = await ctx.em
      .getConnection()
      .execute<{ n: string }[]>(`select count(*) as n from lots l join currency_rates rf on rf.currency = l.currency where ${where.sql.text}`, where.sql.params);
    return Number(row.n);
  }

  /**
   * A watchlist and the lots an account takes part in are its own business: only the account
   * itself and staff of its platform may filter by them.
   */
  private async authorize(ctx: RequestContext, filter: LotFilter): Promise<void> {
    const named = PRIVATE_FILTERS.filter(([key]) => filter[key] !== undefined && filter[key] !== ctx.caller?.accountId);
    if (!named.length) return;
    if (!ctx.caller) throw unauthenticated('unauthenticated', `${named[0][1]} needs a signature or bearer token`);
    for (const [key, name] of named) {
      const account = await ctx.em.findOne(Account, { id: filter[key] as string });
      if (!account || !isStaffOf(ctx.caller, account.platformId)) {
        throw forbidden('not_allowed', `${name} may name only the caller or an account of the caller's platforms`);
      }
    }
  }

  private where(ctx: RequestContext, filter: LotFilter, rates: Map<string, Decimal>): { sql: Sql; rate: string } {
    if (filter.tab && !ctx.caller) throw unauthenticated('unauthenticated', 'filter[tab] needs a signature or bearer token');
    const currency = filter.currency ?? DEFAULT_PRICE_CURRENCY;
    const target = rates.get(currency);
    if (!target) throw invalid('unknown_currency', `no rate for ${currency}`, { field: 'filter.currency' });
    const rate = target.toString();
    return { rate, sql: lotConditions(filter, { callerId: ctx.caller?.accountId ?? null, targetRate: rate, now: new Date() }) };
  }
}
