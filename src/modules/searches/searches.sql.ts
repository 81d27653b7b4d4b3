import { sql, type Sql } from '../../db/sql';
import { notClosedSql } from '../lots';

/** Why a saved search notified its account (the `reason` of a type-31 notification's meta). */
export type MatchReason = 'new_lot' | 'price_fell';

/** The lot's current price in its own currency, as the lot index prices it (lots.sql.ts). */
const LOT_PRICE = sql`coalesce(l.highest_bid, case when l.lot_type = 0 then l.buy_now_price else l.start_price end)`;

/** The lot's price in the search's currency, through EUR with the rates `from` (the lot's currency) and `to` (the search's). */
const priceIn = (from: Sql, to: Sql) => sql`round(${LOT_PRICE} / ${from}.units_per_eur * ${to}.units_per_eur, 2)`;

/** Every filter of search `s` but its price bounds, on lot `l`: a null column does not filter. */
const FILTERS = sql`(s.country is null or s.country = l.country)
       and (s.city is null or lower(s.city) = lower(l.city))
       and (s.maker is null or lower(s.maker) = lower(l.maker))
       and (s.model is null or lower(s.model) = lower(l.model))
       and (s.model_prefix is null or starts_with(lower(l.model), lower(s.model_prefix)))
       and (s.lot_types is null or l.lot_type = any (s.lot_types))
       and (s.fuels is null or l.fuel_type = any (s.fuels))
       and (s.year_min is null or l.year >= s.year_min) and (s.year_max is null or l.year <= s.year_max)
       and (s.buy_now is null or (l.buy_now_price > 0) = s.buy_now)`;

/** The price bounds of search `s` on new lot `l`'s price at the current rates (the lot's own `units_per_eur` and `rt`, the search's currency's). */
const PRICE_BOUNDS = sql`(s.price_min is null or ${priceIn(sql`l`, sql`rt`)} >= s.price_min)
       and (s.price_max is null or ${priceIn(sql`l`, sql`rt`)} <= s.price_max)`;

/** The rows `insertRows` takes: one notification per (search, lot), saying which and why. */
const matchRow = (reason: MatchReason) =>
  sql`s.account_id as recipient, s.id as n, jsonb_build_object('lot_id', l.id::text, 'search_id', s.id::text, 'reason', ${reason}::text) as meta`;

/** How long an alert keeps a search from alerting again about the same lot for the same reason. */
const ALERT_QUIET = sql`interval '1 day'`;

/** Search `s` has not alerted about lot `l` for this reason in the last day. */
const notAlerted = (reason: MatchReason) =>
  sql`not exists (select 1 from saved_search_alerts a where a.search_id = s.id and a.lot_id = l.id and a.reason = ${reason} and a.alerted_at > now() - ${ALERT_QUIET})`;

/** Deletes the alerts that no longer keep a search quiet (`notAlerted` ignores them); answers one row each. */
export const pruneAlerts = sql`delete from saved_search_alerts where alerted_at <= now() - ${ALERT_QUIET} returning 1`;

/** Records the alerts of these notifications' meta (`search_id`, `lot_id`, `reason`) as made now. */
export function recordAlerts(metas: readonly Record<string, string>[]): Sql {
  return sql`insert into saved_search_alerts (search_id, lot_id, reason, alerted_at)
      select (m->>'search_id')::bigint, (m->>'lot_id')::bigint, m->>'reason', now() from jsonb_array_elements(${JSON.stringify(metas)}::jsonb) m
      on conflict (search_id, lot_id, reason) do update set alerted_at = excluded.alerted_at`;
}

/**
 * Every saved search the new lot matches: one statement whatever the number of searches. Prices
 * are compared in the search's currency, converted through EUR as the lot index converts them.
 * The lot is read first as a row of its own (a materialised CTE): joined as the table, the
 * planner weighed each of the lot's columns in the filters against the lots' statistics and
 * indexes for every join order, 5 ms of planning per new lot at 100,000 lots against 0.4 ms
 * (bench/lot-create.mjs), several times the statement's own run. The lot's rate is
 * its own `units_per_eur`, which its insert's trigger has just read from currency_rates under a
 * share lock. No alert about a new lot is looked for: a lot is new once, so none can exist (nor is
 * one recorded, see `alert` in searches.service.ts). The searches are read by their maker, those
 * naming the lot's and those naming none (`saved_searches_maker_idx`), not all of them.
 */
export function matchingSearches(lotId: string): Sql {
  return sql`with l as materialized (select * from lots l where l.id = ${lotId} and ${notClosedSql()})
    select ${matchRow('new_lot')}
      from l
      join saved_searches s on lower(s.maker) is null or lower(s.maker) = lower(l.maker)
      join currency_rates rt on rt.currency = s.currency
     where ${FILTERS} and ${PRICE_BOUNDS}`;
}

/**
 * Every (open lot, saved search with a price max) whose converted price the rate change moved
 * from above the max to at or under it, the search otherwise matching: one statement whatever the
 * number of lots and searches. `changed` maps each changed currency to its rate before; the
 * current rates are those stored (the change is written already). A lot and a search in the same
 * currency are never moved by a rate. Each open lot's price is computed before and after in every
 * other currency, and the searches whose max lies between are found by a range scan of
 * `saved_searches_price_max_idx`, so the cost follows the lots and the searches crossed, not
 * lots × searches.
 */
export function priceFalls(changed: ReadonlyMap<string, string>): Sql {
  const currencies = sql.array([...changed.keys()], 'text');
  return sql`with before as (
        select r.currency, coalesce(o.units_per_eur, r.units_per_eur) as units_per_eur
          from currency_rates r
          left join unnest(${currencies}, ${sql.array([...changed.values()], 'numeric')}) as o (currency, units_per_eur) using (currency)),
      moved as materialized (
        select l.id, rt.currency, ${priceIn(sql`rf`, sql`rt`)} as now_price, ${priceIn(sql`bf`, sql`bt`)} as was_price
          from lots l
          join currency_rates rf on rf.currency = l.currency
          join before bf on bf.currency = l.currency
          join currency_rates rt on rt.currency <> l.currency
          join before bt on bt.currency = rt.currency
         where ${notClosedSql()} and (l.currency = any (${currencies}) or rt.currency = any (${currencies})))
    select ${matchRow('price_fell')}
      from moved m
      join lots l on l.id = m.id
      -- A range scan per (lot, currency); offset 0 keeps the planner from merging the whole index with every lot instead.
      cross join lateral (select * from saved_searches s where s.currency = m.currency and s.price_max >= m.now_price and s.price_max < m.was_price offset 0) s
     where ${FILTERS} and (s.price_min is null or m.now_price >= s.price_min) and ${notAlerted('price_fell')}`;
}

/**
 * Marks as emailed, and answers with their account's email, those of the searches whose last
 * email is over a day old (or that never sent one): at most one email a day per search.
 */
/** A saved search `dueForEmail` marks, with the address to mail. */
export interface DueSearch {
  id: string;
  account_id: string;
  email: string;
  platform_id: string | null;
}

export function dueForEmail(searchIds: readonly string[]): Sql {
  return sql`update saved_searches s set last_emailed_at = now()
      from accounts a
     where s.id = any (${sql.array(searchIds, 'bigint')}) and a.id = s.account_id and a.email is not null
       and (s.last_emailed_at is null or s.last_emailed_at <= now() - interval '1 day')
     returning s.id::text, s.account_id, a.email, a.platform_id`;
}
