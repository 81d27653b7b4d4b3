import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../../db/raw';
import { sql } from '../../db/sql';
import type { RequestContext } from '../../core/context';
import { rateLimited } from '../../core/errors';
import { addressGroup } from './address-group';

/** What a request does, as far as rate limits go; each edge names its operations' actions. */
/** What a request does that the limits count: its writes (a GraphQL operation: one per mutation field), of which account creations. */
export interface LimitedActions {
  writes: number;
  accountCreations: number;
}

export interface RateLimits {
  /** Seconds of a window of the write limits. */
  window: number;
  /** Writes per window from one address; 0: no limit. */
  writesPerAddress: number;
  /** Writes per window by one account; 0: no limit. */
  writesPerAccount: number;
  /** Seconds of a window of the account creation limit. */
  accountsWindow: number;
  /** Accounts created per window from one address; 0: no limit. */
  accountsPerAddress: number;
}

interface Bucket {
  key: string;
  limit: number;
  window: number;
  what: string;
  /** How many the request counts in it at once. */
  hits: number;
}

/**
 * Fixed-window counters in PostgreSQL (`rate_limit_counters`), so that every instance on the
 * database shares them: a hit is one upsert of all the caller's buckets, which starts a new
 * window or counts one more in the current one, and answers the counts. A bucket over its limit
 * answers 429 `too_many_requests` with the seconds until its window ends (REST: `Retry-After`).
 * A refused hit counts too: hammering on does not reopen the window early.
 */
export class RateLimiter {
  constructor(private readonly limits: RateLimits) {}

  private bucketsOf(ctx: RequestContext, { writes, accountCreations }: LimitedActions): Bucket[] {
    const { window, writesPerAddress, writesPerAccount, accountsWindow, accountsPerAddress } = this.limits;
    const address = addressGroup(ctx.address);
    const buckets: Bucket[] = [
      { key: `write:address:${address}`, limit: writesPerAddress, window, what: 'writes from this address', hits: writes },
      ...(ctx.caller ? [{ key: `write:account:${ctx.caller.accountId}`, limit: writesPerAccount, window, what: 'writes by this account', hits: writes }] : []),
      ...(accountCreations > 0 ? [{ key: `accounts:address:${address}`, limit: accountsPerAddress, window: accountsWindow, what: 'accounts created from this address', hits: accountCreations }] : []),
    ];
    return buckets.filter((b) => b.limit > 0).sort((a, b) => (a.key < b.key ? -1 : 1));
  }

  /** Counts the caller's `actions`; throws 429 when a bucket of them is used up. */
  async hit(ctx: RequestContext, actions: LimitedActions): Promise<void> {
    const buckets = this.bucketsOf(ctx, actions);
    if (!buckets.length) return;
    const rows = await count(ctx.em, buckets);
    let refusal: { bucket: Bucket; until: Date } | null = null;
    for (const bucket of buckets) {
      const row = rows.get(bucket.key);
      if (!row || row.hits <= bucket.limit) continue;
      const until = new Date(Date.now() + (row.start + bucket.window - row.now) * 1000);
      if (!refusal || until > refusal.until) refusal = { bucket, until };
    }
    if (refusal) {
      const { bucket, until } = refusal;
      throw rateLimited('too_many_requests', `more than ${bucket.limit} ${bucket.what} in ${bucket.window} seconds; try again later`, until);
    }
  }

  /** Deletes the counters whose window has ended (a cleaner): a counter is one row per address or account ever seen. */
  async prune(em: EntityManager): Promise<number> {
    const longest = Math.max(this.limits.window, this.limits.accountsWindow);
    const [{ rowCount }] = await rawQuery(em, sql.render(sql`delete from rate_limit_counters where window_start < now() - make_interval(secs => ${longest})`));
    return rowCount ?? 0;
  }
}

/** One upsert for every bucket, keys in order so that concurrent hits lock rows alike. */
async function count(em: EntityManager, buckets: Bucket[]): Promise<Map<string, { hits: number; start: number; now: number }>> {
  const keys = sql.array(buckets.map((b) => b.key), 'text');
  const windows = sql.array(buckets.map((b) => String(b.window)), 'bigint');
  const hits = sql.array(buckets.map((b) => String(b.hits)), 'bigint');
  const [{ rows }] = await rawQuery(
    em,
    sql.render(sql`insert into rate_limit_counters as c (key, window_start, hits)
      select k, to_timestamp(floor(extract(epoch from now()) / w) * w), n from unnest(${keys}, ${windows}, ${hits}) as t(k, w, n)
      on conflict (key) do update set
        hits = case when c.window_start = excluded.window_start then c.hits + excluded.hits else excluded.hits end,
        window_start = excluded.window_start
      returning key, hits, extract(epoch from window_start)::float8 as start, extract(epoch from now())::float8 as now`),
  );
  return new Map(rows.map((r) => [r.key as string, { hits: Number(r.hits), start: Number(r.start), now: Number(r.now) }]));
}
