import { resource, type Resource } from '../../rest/document';
import type { LotsAggregate, LotSums } from './lots.aggregate';

const sums = (s: LotSums) => ({ price: s.price, start_price: s.startPrice, buy_now_price: s.buyNowPrice, highest_bid: s.highestBid });

/**
 * GET /lots/aggregate: the answer of `lotsAggregate`, amounts as decimal strings in `currency`.
 * The resource is named by its currency and grouping, the two things that shape it besides the filter.
 */
export function presentLotsAggregate(a: LotsAggregate): Resource {
  return resource('lots_aggregates', a.groupBy ? `${a.currency}:${a.groupBy}` : a.currency, {
    count: a.count,
    currency: a.currency,
    sums: sums(a.sums),
    group_by: a.groupBy,
    groups: a.groups.map((g) => ({ key: g.key, count: g.count, sums: sums(g.sums) })),
    groups_truncated: a.groupsTruncated,
  });
}
