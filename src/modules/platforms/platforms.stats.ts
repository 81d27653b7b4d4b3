import { z } from 'zod';
import { AccountType } from '../../core/account-type';
import type { RequestContext } from '../../core/context';
import { forbidden, invalid } from '../../core/errors';
import { CURRENCIES, formatMoney } from '../../core/money';
import { isStaffOf, requireCaller } from '../../core/policies';
import { INSTANT_RANGE_MESSAGE, withinInstantRange } from '../../core/time';
import { validateInput, type Untrusted } from '../../core/validate';
import { rawQuery, type Rows } from '../../db/raw';
import { sql } from '../../db/sql';
import { bidStatsSql } from '../bids';
import { isCurrency } from '../currency';
import { DEFAULT_PRICE_CURRENCY, lotStatsSql, type StatsUnit } from '../lots';

export const STATS_INTERVALS = ['hour', 'day', 'week', 'month'] as const satisfies readonly StatsUnit[];

/** The most intervals one answer holds: a year of days, two weeks of hours, seven years of weeks. */
export const MAX_STATS_BUCKETS = 366;

/** A platform's activity over one interval [start, end) at UTC; GMV in the answer's currency. */
export interface StatsBucket {
  start: Date;
  end: Date;
  lotsListed: number;
  lotsSold: number;
  bids: number;
  activeBidders: number;
  gmv: string;
}

export interface PlatformStats {
  platformId: string;
  interval: StatsUnit;
  currency: string;
  buckets: StatsBucket[];
}

export interface PlatformStatsInput {
  platformId: string;
  from: Date | string;
  to: Date | string;
  interval: StatsUnit;
  currency?: string;
}

/** The start of the interval after `at`, at UTC. */
function next(at: Date, unit: StatsUnit): Date {
  const d = new Date(at);
  if (unit === 'hour') d.setUTCHours(d.getUTCHours() + 1);
  else if (unit === 'day') d.setUTCDate(d.getUTCDate() + 1);
  else if (unit === 'week') d.setUTCDate(d.getUTCDate() + 7);
  else d.setUTCMonth(d.getUTCMonth() + 1);
  return d;
}

/** Whether `at` starts an interval at UTC (weeks start on Monday, as PostgreSQL's date_trunc has them). */
function onBoundary(at: Date, unit: StatsUnit): boolean {
  if (at.getUTCMinutes() || at.getUTCSeconds() || at.getUTCMilliseconds()) return false;
  if (unit === 'hour') return true;
  if (at.getUTCHours()) return false;
  if (unit === 'day') return true;
  return unit === 'week' ? at.getUTCDay() === 1 : at.getUTCDate() === 1;
}

const ARGUMENT = { code: 'stats_range_invalid' } as const;
const DATE_TIME = 'must be an RFC 3339 date-time with its offset (2026-11-01T00:00:00Z)';
const instant = z
  .union([z.date(), z.string().datetime({ offset: true }).transform((s) => new Date(s))], { error: DATE_TIME })
  .refine((d) => !Number.isNaN(d.getTime()), DATE_TIME)
  .refine(withinInstantRange, INSTANT_RANGE_MESSAGE);

const statsInput = z
  .object({
    platformId: z.string().min(1).max(56),
    from: instant,
    to: instant,
    interval: z.enum(STATS_INTERVALS, { message: `must be one of ${STATS_INTERVALS.join(', ')}` }),
    currency: z
      .string()
      .refine(isCurrency, { message: `must be one of ${CURRENCIES.join(', ')}` })
      .nullish()
      .transform((c) => c ?? undefined),
  })
  .superRefine((r, ctx) => {
    for (const end of ['from', 'to'] as const) {
      if (!onBoundary(r[end], r.interval)) ctx.addIssue({ code: 'custom', path: [end], params: ARGUMENT, message: `must start a ${r.interval} at UTC (whole intervals only)` });
    }
    if (r.from >= r.to) ctx.addIssue({ code: 'custom', path: ['from'], params: ARGUMENT, message: 'must be before to' });
  });

/** The interval starts of [from, to), or null past MAX_STATS_BUCKETS. */
function bucketsOf(from: Date, to: Date, unit: StatsUnit): Date[] | null {
  const starts: Date[] = [];
  for (let at = from; at < to; at = next(at, unit)) {
    if (starts.length === MAX_STATS_BUCKETS) return null;
    starts.push(at);
  }
  return starts;
}

const byBucket = (rows: Rows) => new Map(rows.map((r) => [new Date(r.bucket as string).getTime(), r]));

/**
 * An operator's dashboard of a platform: per interval, the lots it listed and sold, the bids on its
 * lots, their distinct bidders and its GMV (the sold lots' prices). Its staff and the master
 * account only. The lots' and the bids' statements, and the rate's check, go in one round trip.
 */
export class PlatformStatsService {
  async stats(ctx: RequestContext, input: Untrusted<PlatformStatsInput>): Promise<PlatformStats> {
    const caller = requireCaller(ctx);
    const { platformId, from, to, interval, currency = DEFAULT_PRICE_CURRENCY } = validateInput(statsInput, input);
    if (caller.accountType !== AccountType.Master && !isStaffOf(caller, platformId)) {
      throw forbidden('not_allowed', "a platform's statistics are for its staff and the master account");
    }
    const starts = bucketsOf(from, to, interval);
    if (!starts) throw invalid('stats_range_invalid', `to: from to to spans more than ${MAX_STATS_BUCKETS} intervals of a ${interval}`, { field: 'to' });
    const [rate, lots, bids] = await rawQuery(
      ctx.em,
      sql.render(sql`select 1 from currency_rates where currency = ${currency}`),
      sql.render(lotStatsSql(platformId, interval, from, to, currency)),
      sql.render(bidStatsSql(platformId, interval, from, to)),
    );
    if (!rate.rows.length) throw invalid('unknown_currency', `no rate for ${currency}`, { field: 'currency' });
    const listed = byBucket(lots.rows.filter((r) => r.kind === 'listed'));
    const sold = byBucket(lots.rows.filter((r) => r.kind === 'sold'));
    const bidding = byBucket(bids.rows);
    const buckets = starts.map((start) => {
      const t = start.getTime();
      const s = sold.get(t);
      const b = bidding.get(t);
      return {
        start,
        end: next(start, interval),
        lotsListed: Number(listed.get(t)?.n ?? 0),
        lotsSold: Number(s?.n ?? 0),
        bids: Number(b?.bids ?? 0),
        activeBidders: Number(b?.bidders ?? 0),
        gmv: formatMoney((s?.gmv as string | null | undefined) ?? '0'),
      };
    });
    return { platformId, interval, currency, buckets };
  }
}
