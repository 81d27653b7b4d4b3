import type Decimal from 'decimal.js';
import type { RequestContext } from '../../core/context';
import { forbidden, invalid, unauthenticated } from '../../core/errors';
import { isStaffOf } from '../../core/policies';
import { keysetClauses } from '../../db/keyset';
import { rowsOf } from '../../db/query';
import { sql, type Sql } from '../../db/sql';
import { Account } from '../accounts/accounts.entity';
import { keysetPage, planKeyset } from '../../core/cursors';
import type { KeysetPage } from '../../core/page';
import { Lot } from './lots.entity';
import type { LotFilter } from './lots.filter';
import type { LotPage } from './lots.input';
import { lotConditions, sortExpression } from './lots.sql';

/** Prices are compared in this currency when the filter names none (PROTOCOL.md §9). */
export const DEFAULT_PRICE_CURRENCY = 'USD';

/** The filters that name an account's own business, with the names the messages give them. */
const PRIVATE_FILTERS = [
  ['starsOf', 'filter[stars_of]'],
  ['participant', 'filter[participant]'],
] as const;

/** The index and count of lots: one SQL statement each, every value a parameter. */
export class LotListing {
  async page(ctx: RequestContext, req: LotPage, rates: Map<string, Decimal>): Promise<KeysetPage<Lot>> {
    await this.authorize(ctx, req.filter);
    const { where, rate } = this.where(ctx, req.filter, rates);
    const { expr, kind } = sortExpression(req.sort.key, rate);
    const keyset = { key: req.sort.key, desc: req.sort.desc, cursor: req.page.cursor, limit: req.page.limit };
    const plan = planKeyset(keyset);
    const page = keysetClauses(expr, kind, sql`l.id`, plan);
    const rows = await rowsOf<Record<string, unknown>>(
      ctx.em,
      sql`select l.*, ${page.sortValue} as sort_value from lots l join currency_rates rf on rf.currency = l.currency
       where ${where} and ${page.beyond} order by ${page.orderBy} limit ${plan.take}`,
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
    const { where } = this.where(ctx, filter, rates);
    const [row] = await rowsOf<{ n: string }>(ctx.em, sql`select count(*) as n from lots l join currency_rates rf on rf.currency = l.currency where ${where}`);
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

  private where(ctx: RequestContext, filter: LotFilter, rates: Map<string, Decimal>): { where: Sql; rate: string } {
    if (filter.tab && !ctx.caller) throw unauthenticated('unauthenticated', 'filter[tab] needs a signature or bearer token');
    const currency = filter.currency ?? DEFAULT_PRICE_CURRENCY;
    const target = rates.get(currency);
    if (!target) throw invalid('unknown_currency', `no rate for ${currency}`, { field: 'filter.currency' });
    const rate = target.toString();
    return { rate, where: lotConditions(filter, { callerId: ctx.caller?.accountId ?? null, targetRate: rate, now: new Date() }) };
  }
}
