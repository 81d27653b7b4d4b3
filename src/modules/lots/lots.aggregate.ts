import { formatMoney } from '../../core/money';
import type { Rows } from '../../db/raw';
import { sql, type Sql } from '../../db/sql';
import { LOT_STATE_NAMES, LotState } from './lots.entity';

/** What an aggregate of lots may group by: their state, their maker as stored, their publishing platform. */
export const LOT_GROUPS = ['state', 'maker', 'platform'] as const;
export type LotGroup = (typeof LOT_GROUPS)[number];

/**
 * The most groups an aggregate answers, the largest first: a maker is free text on imported lots,
 * so its groups have no bound of their own.
 */
export const MAX_GROUPS = 100;

const GROUP_KEYS: Record<LotGroup, Sql> = { state: sql`l.lot_state`, maker: sql`l.maker`, platform: sql`l.publisher_id` };

/**
 * A price as the lot index shows it in `t`'s currency: in the lot's own currency as stored, else
 * divided by the lot's rate and multiplied by the target's, rounded half up to the cent, as the
 * converter of currency.service.ts does (the dividend at 40 decimals, as its 40 digits). `l` is a
 * lot, whose `units_per_eur` is its currency's stored rate, `t` a row of currency_rates.
 */
const shownPriceSql = (amount: Sql): Sql =>
  sql`case when l.currency = t.currency then ${amount} else round(${amount}::numeric(60, 40) / l.units_per_eur * t.units_per_eur, 2) end`;

/**
 * The lot's price as the index shows and sorts it: its highest bid, else its buy-now price for a
 * direct sale and its start price for an auction (price_eur of Migration20261124100000LotSortKeys).
 */
const PRICE = sql`coalesce(l.highest_bid, case when l.lot_type = 0 then l.buy_now_price else l.start_price end)`;

/** The sums an aggregate answers, in its currency, each lot's price rounded to the cent first as its page shows it. The reserve is never among them. */
export interface LotSums {
  price: string;
  startPrice: string;
  buyNowPrice: string;
  highestBid: string;
}

export interface LotGroupRow {
  /** The state's name, the maker, the platform's id; null for lots without a maker. */
  key: string | null;
  count: number;
  sums: LotSums;
}

export interface LotsAggregate {
  currency: string;
  count: number;
  sums: LotSums;
  groupBy: LotGroup | null;
  groups: LotGroupRow[];
  /** More groups than MAX_GROUPS matched; the smallest were left out (`count` and `sums` hold every lot). */
  groupsTruncated: boolean;
}

const SUMS = sql`sum(${shownPriceSql(PRICE)}) as price, sum(${shownPriceSql(sql`l.start_price`)}) as start_price,
  sum(${shownPriceSql(sql`l.buy_now_price`)}) as buy_now_price, sum(${shownPriceSql(sql`coalesce(l.highest_bid, 0)`)}) as highest_bid`;

/**
 * One statement: the total of the lots under `where` and, with `groupBy`, one row per group
 * (grouping sets), the largest first; at most MAX_GROUPS + 1 groups, to tell a truncation.
 */
export function aggregateSql(where: Sql, currency: string, groupBy: LotGroup | undefined): Sql {
  const from = sql`from lots l join currency_rates t on t.currency = ${currency} where ${where}`;
  if (!groupBy) return sql`select true as total, null as key, count(*) as n, ${SUMS} ${from}`;
  const key = GROUP_KEYS[groupBy];
  return sql`select grouping(${key}) = 1 as total, ${key}::text as key, count(*) as n, ${SUMS} ${from}
    group by grouping sets ((), (${key})) order by grouping(${key}) desc, count(*) desc, ${key} nulls last limit ${MAX_GROUPS + 2}`;
}

const money = (v: unknown): string => formatMoney(v === null ? '0' : (v as string));
const sumsOf = (r: Rows[number]): LotSums => ({ price: money(r.price), startPrice: money(r.start_price), buyNowPrice: money(r.buy_now_price), highestBid: money(r.highest_bid) });
const keyOf = (groupBy: LotGroup, key: string | null): string | null => (groupBy === 'state' && key !== null ? LOT_STATE_NAMES[Number(key) as LotState] : key);

export function aggregateOfRows(rows: Rows, currency: string, groupBy: LotGroup | undefined): LotsAggregate {
  const [total, ...groups] = rows;
  return {
    currency,
    count: Number(total.n),
    sums: sumsOf(total),
    groupBy: groupBy ?? null,
    groups: groupBy ? groups.slice(0, MAX_GROUPS).map((r) => ({ key: keyOf(groupBy, r.key as string | null), count: Number(r.n), sums: sumsOf(r) })) : [],
    groupsTruncated: groups.length > MAX_GROUPS,
  };
}

/** The bucket units of the platform statistics: PostgreSQL's date_trunc fields. */
export type StatsUnit = 'hour' | 'day' | 'week' | 'month';

/**
 * A platform's lots per bucket of [from, to) at UTC, in one statement: rows `(kind, bucket, n, gmv)`,
 * `listed` by their creation, `sold` (lots closed sold) by their end, with the sum of their prices
 * in `currency` as `gmv`. Read through lots_publisher_created_idx and lots_publisher_sold_idx.
 */
export function lotStatsSql(platformId: string, unit: StatsUnit, from: Date, to: Date, currency: string): Sql {
  return sql`select 'listed' as kind, date_trunc(${unit}, l.created_at, 'UTC') as bucket, count(*) as n, null::numeric as gmv
      from lots l where l.publisher_id = ${platformId} and l.created_at >= ${from} and l.created_at < ${to} group by 2
    union all
    select 'sold', date_trunc(${unit}, l.end_time, 'UTC'), count(*), sum(${shownPriceSql(PRICE)})
      from lots l join currency_rates t on t.currency = ${currency}
     where l.publisher_id = ${platformId} and l.lot_state = ${LotState.Sold} and l.end_time >= ${from} and l.end_time < ${to} group by 2`;
}
