import { sql, type Sql } from '../../db/sql';

/**
 * A platform's bids and distinct bidders per bucket of [from, to) at UTC (`unit` one of
 * date_trunc's hour, day, week, month): rows `(bucket, bids, bidders)` read off bid_activity, whose
 * rows are per hour, so `from` and `to` are expected on hours; a bidder of several hours of a
 * bucket counts once in it. Grouped by bidder first, then by bucket: two hash aggregates, where
 * count(distinct) sorted the range's rows.
 */
export const bidStatsSql = (platformId: string, unit: string, from: Date, to: Date): Sql =>
  sql`select x.bucket, sum(x.bids) as bids, count(*) as bidders
        from (select date_trunc(${unit}, a.hour, 'UTC') as bucket, a.account_id, sum(a.bids) as bids
                from bid_activity a where a.platform_id = ${platformId} and a.hour >= ${from} and a.hour < ${to} group by 1, 2) x
       group by 1`;
