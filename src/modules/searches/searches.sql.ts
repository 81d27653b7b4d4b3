import { sql, type Sql } from '../../db/sql';
import { LotState } from '../lots/lots.entity';

/** The lot's current price in its own currency, as the lot index prices it (lots.sql.ts). */
const LOT_PRICE = sql`coalesce(l.highest_bid, case when l.lot_type = 0 then l.buy_now_price else l.start_price end)`;

/**
 * Every saved search the lot matches, as `(recipient, n)` rows for `insertBatch`: one statement
 * whatever the number of searches. A null column does not filter; prices are compared in the
 * search's currency, converted through EUR as the lot index converts them.
 */
export function matchingSearches(lotId: string): Sql {
  return sql`select s.account_id as recipient, s.id as n
      from lots l
      join currency_rates rf on rf.currency = l.currency
      join saved_searches s on true
      join currency_rates rt on rt.currency = s.currency
     where l.id = ${lotId} and l.lot_state = ${LotState.Pending}
       and (s.country is null or s.country = l.country)
       and (s.city is null or lower(s.city) = lower(l.city))
       and (s.maker is null or lower(s.maker) = lower(l.maker))
       and (s.model is null or lower(s.model) = lower(l.model))
       and (s.model_prefix is null or starts_with(lower(l.model), lower(s.model_prefix)))
       and (s.lot_types is null or l.lot_type = any (s.lot_types))
       and (s.fuels is null or l.fuel_type = any (s.fuels))
       and (s.year_min is null or l.year >= s.year_min) and (s.year_max is null or l.year <= s.year_max)
       and (s.buy_now is null or (l.buy_now_price > 0) = s.buy_now)
       and (s.price_min is null or round(${LOT_PRICE} / rf.units_per_eur * rt.units_per_eur, 2) >= s.price_min)
       and (s.price_max is null or round(${LOT_PRICE} / rf.units_per_eur * rt.units_per_eur, 2) <= s.price_max)`;
}

/**
 * Marks as emailed, and answers with their account's email, the searches the lot matches whose
 * last email is over a day old (or that never sent one): at most one email a day per search.
 */
export function dueForEmail(lotId: string): Sql {
  return sql`update saved_searches s set last_emailed_at = now()
      from (${matchingSearches(lotId)}) m, accounts a
     where s.id = m.n and a.id = s.account_id and a.email is not null
       and (s.last_emailed_at is null or s.last_emailed_at <= now() - interval '1 day')
     returning s.id::text, s.account_id, a.email, a.platform_id`;
}
