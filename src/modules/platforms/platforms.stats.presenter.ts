import { rfc3339 } from '../../core/time';
import { resource, type Resource } from '../../rest/document';
import type { PlatformStats } from './platforms.stats';

/** GET /platforms/{id}/stats: the answer of `platformStats`, one interval per item, GMV as a decimal string in `currency`. */
export function presentPlatformStats(s: PlatformStats): Resource {
  return resource('platform_stats', s.platformId, {
    interval: s.interval,
    currency: s.currency,
    intervals: s.buckets.map((b) => ({
      start: rfc3339(b.start),
      end: rfc3339(b.end),
      lots_listed: b.lotsListed,
      lots_sold: b.lotsSold,
      bids: b.bids,
      active_bidders: b.activeBidders,
      gmv: b.gmv,
    })),
  });
}
