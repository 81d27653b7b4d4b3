import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import { invalid } from '../../core/errors';
import { ACCOUNT_ID } from '../../core/ids';
import { httpLink } from '../../core/links';
import { rowsOf } from '../../db/query';
import { sql } from '../../db/sql';
import { formatMoney, priceInput, CURRENCIES } from '../../core/money';
import { inTransaction } from '../../core/transaction';
import { AccountType } from '../../core/account-type';
import type { AccountColumns } from '../../core/account-columns';
import { ReferenceService } from '../reference';
import { LotType } from './lots.entity';
import { PARTNER_A_STATUS_VALUES } from './lots.filter.table';
import { detailsSchema } from './lots.input';
import { detailColumns, lotNameOf } from './lots.draft';

/**
 * Import of external-source lots (lot_type 2 partnerA,
 * 3 partnerB) from a feed of JSON Lines, one lot a line:
 *
 *   {"lot_id": 41234567, "currency": "USD", "start_price": "1500.00", "buy_now_price": 0,
 *    "start_time": 1795000000 | "2026-12-01T10:00:00Z", "duration": 86400 | "end_time": …,
 *    "details": {"country": "USA", "year": 2018, "maker": "Toyota", "model": "Camry",
 *                "vin_code": "…", "yard_number": 12, "sale_status": "pure", "highlights": "…",
 *                "lot_link": "https://…", "sale_link": "https://…", "thumbnail_img_links": […], …}}
 *
 * `details` takes every member of the create-lot details object plus the external-source ones.
 * Lots are upserted by (lot_type, source lot id); a line that changes nothing leaves its lot
 * untouched, so importing the same feed twice changes nothing the second time.
 */

export const IMPORT_SOURCES = { partnerA: LotType.PartnerA, partnerB: LotType.PartnerB } as const;
export type ImportSource = keyof typeof IMPORT_SOURCES;

export const DEFAULT_BATCH_SIZE = 500;
/** A feed line longer than this is rejected unread. */
export const MAX_LINE_LENGTH = 64 * 1024;
/** How many rejected lines the summary lists (the count covers them all). */
export const MAX_LISTED_REJECTIONS = 1000;

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const MAX_EPOCH_SECONDS = 253402300799; // 9999-12-31T23:59:59Z

/** A point in time as epoch seconds (integer) or an RFC 3339 string. */
const instant = z.union([z.number(), z.string()]).transform((v, ctx) => {
  const ms = typeof v === 'number' ? (Number.isInteger(v) && v > 0 && v <= MAX_EPOCH_SECONDS ? v * 1000 : NaN) : RFC3339.test(v) ? Date.parse(v) : NaN;
  if (Number.isNaN(ms)) {
    ctx.addIssue({ code: 'custom', message: 'must be epoch seconds or an RFC 3339 time' });
    return z.NEVER;
  }
  return new Date(Math.floor(ms / 1000) * 1000);
});

const price = priceInput;

const links = z.array(httpLink()).max(100);

export function feedLineSchema(reference: ReferenceService) {
  const details = detailsSchema(reference).extend({
    // Partner feeds spell country codes in either case; stored upper-case as the filter reads them.
    country: z
      .string()
      .transform((c) => c.toUpperCase())
      .refine((c) => reference.isCountryCode(c), 'must be an ISO 3166-1 alpha-3 code'),
    thumbnail_img_links: links.optional(),
    yard_number: z.number().int().min(0).max(2_147_483_647).optional(),
    sale_status: z.enum(PARTNER_A_STATUS_VALUES).optional(),
    highlights: z.string().trim().max(2000).optional(),
    lot_link: httpLink().optional(),
    sale_link: httpLink().optional(),
  });
  return z
    .object({
      lot_id: z
        .union([z.number().int().positive().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^[1-9]\d{0,15}$/)])
        .transform(String)
        .refine((id) => Number.isSafeInteger(Number(id)), 'must be a positive integer below 2^53'),
      currency: z.enum(CURRENCIES),
      start_price: price,
      buy_now_price: price.optional(),
      start_time: instant,
      duration: z.number().int().min(1).max(365 * 86400).optional(),
      end_time: instant.optional(),
      details,
    })
    .superRefine((v, ctx) => {
      if (!v.start_time) return;
      if (v.duration === undefined && v.end_time === undefined) {
        ctx.addIssue({ code: 'custom', path: ['duration'], message: 'duration or end_time is required' });
      } else if (v.end_time && v.end_time <= v.start_time) {
        ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'must be after start_time' });
      } else if (v.end_time && v.duration !== undefined && v.end_time.getTime() - v.start_time.getTime() !== v.duration * 1000) {
        ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'must equal start_time plus duration when both are given' });
      } else if (v.end_time && v.end_time.getTime() - v.start_time.getTime() > 365 * 86400 * 1000) {
        ctx.addIssue({ code: 'custom', path: ['end_time'], message: 'must be at most 365 days after start_time' });
      }
    });
}
export type FeedLine = z.infer<ReturnType<typeof feedLineSchema>>;

export interface Rejection {
  /** 1-based line number in the feed. */
  line: number;
  reason: string;
}

export interface ImportSummary {
  source: ImportSource;
  /** Lines read, blank ones included. */
  lines: number;
  created: number;
  updated: number;
  /** Lots whose line matched what was stored: left as they were. */
  unchanged: number;
  /** Count of rejected lines; `rejections` lists the first MAX_LISTED_REJECTIONS of them. */
  rejected: number;
  rejections: Rejection[];
}

export type ImportProgress = Omit<ImportSummary, 'rejections' | 'source'>;

export interface ImportOptions {
  /** The platform account that publishes and organises the imported lots. */
  platformId: string;
  batchSize?: number;
  /** Called after every line read and after every batch written. */
  onProgress?: (progress: ImportProgress) => void;
  reference?: ReferenceService;
}

/** The columns of one lot row as the upsert reads them from its JSON batch. */
interface FeedLotRow {
  lot_type: number;
  source_lot_id: string;
  currency: string;
  start_price: string;
  buy_now_price: string;
  start_time: string;
  duration: number;
  end_time: string;
  organizer_id: string;
  publisher_id: string;
  details: Record<string, unknown>;
  country: string;
  city: string | null;
  year: number;
  maker: string;
  model: string;
  vin: string | null;
  wheel: string | null;
  fuel_type: string | null;
  transmission: string | null;
  registered: boolean | null;
  engine_volume: number | null;
  yard_number: number | null;
  sale_status: string | null;
}

const COLUMNS: [keyof FeedLotRow, string][] = [
  ['lot_type', 'smallint'],
  ['source_lot_id', 'bigint'],
  ['currency', 'varchar'],
  ['start_price', 'numeric'],
  ['buy_now_price', 'numeric'],
  ['start_time', 'timestamptz'],
  ['duration', 'integer'],
  ['end_time', 'timestamptz'],
  ['organizer_id', 'varchar'],
  ['publisher_id', 'varchar'],
  ['details', 'jsonb'],
  ['country', 'varchar'],
  ['city', 'varchar'],
  ['year', 'smallint'],
  ['maker', 'varchar'],
  ['model', 'varchar'],
  ['vin', 'varchar'],
  ['wheel', 'varchar'],
  ['fuel_type', 'varchar'],
  ['transmission', 'varchar'],
  ['registered', 'boolean'],
  ['engine_volume', 'numeric'],
  ['yard_number', 'integer'],
  ['sale_status', 'varchar'],
];
/** Columns an update rewrites (everything but the conflict key). */
const UPDATED = COLUMNS.map(([c]) => c).filter((c) => c !== 'lot_type' && c !== 'source_lot_id');

/** A lot `UPSERT` wrote: `created` when it was new (else updated). */
interface Upserted {
  created: boolean;
}

/**
 * One statement per batch: the rows travel as one JSON parameter. A row whose columns all equal
 * the stored ones is not rewritten (and so not returned); `xmax = 0` tells a created row from an
 * updated one. External lots carry no deposit and no bidding steps.
 */
const UPSERT = `
  insert into lots as l (${COLUMNS.map(([c]) => c).join(', ')}, deposit, min_step, max_step)
  select ${COLUMNS.map(([c]) => `r.${c}`).join(', ')}, 0, 0, 0
  from jsonb_to_recordset(?::jsonb) as r(${COLUMNS.map(([c, t]) => `${c} ${t}`).join(', ')})
  on conflict (lot_type, source_lot_id) where source_lot_id is not null do update set
    ${UPDATED.map((c) => `${c} = excluded.${c}`).join(', ')}, updated_at = now()
  where (${UPDATED.map((c) => `l.${c}`).join(', ')}) is distinct from (${UPDATED.map((c) => `excluded.${c}`).join(', ')})
  returning (xmax = 0) as created`;

/** The lot row of a valid feed line. */
function feedLotRowOf(source: ImportSource, line: FeedLine, platformId: string): FeedLotRow {
  const d = line.details;
  const duration = line.duration ?? Math.round(((line.end_time as Date).getTime() - line.start_time.getTime()) / 1000);
  const details: Record<string, unknown> = { ...d, lot_name: lotNameOf(d) };
  const columns = detailColumns(d);
  if (source === 'partnerA') details.partnerA_lot_id = Number(line.lot_id);
  return {
    lot_type: IMPORT_SOURCES[source],
    source_lot_id: line.lot_id,
    currency: line.currency,
    start_price: formatMoney(line.start_price),
    buy_now_price: formatMoney(line.buy_now_price ?? 0),
    start_time: line.start_time.toISOString(),
    duration,
    end_time: new Date(line.start_time.getTime() + duration * 1000).toISOString(),
    organizer_id: platformId,
    publisher_id: platformId,
    details,
    country: columns.country,
    city: columns.city,
    year: columns.year,
    maker: columns.maker,
    model: columns.model,
    vin: columns.vin,
    wheel: columns.wheel,
    fuel_type: columns.fuelType,
    transmission: columns.transmission,
    registered: columns.registered,
    // numeric(6,2): rounded as stored, so that an unchanged line compares equal.
    engine_volume: columns.engineVolume === null ? null : Math.round(columns.engineVolume * 100) / 100,
    yard_number: d.yard_number ?? null,
    sale_status: d.sale_status ?? null,
  };
}

/** Why a parsed line fails the schema, one clause per faulty member. */
function reasonOf(error: z.ZodError, value: unknown): string {
  return error.issues
    .map((issue) => {
      const name = issue.path.map(String).join('.') || 'line';
      const given = issue.path.reduce<unknown>((cur, key) => (cur && typeof cur === 'object' ? (cur as Record<PropertyKey, unknown>)[key] : undefined), value);
      return issue.code === 'invalid_type' && given === undefined && issue.path.length ? `${name} is required` : `${name}: ${issue.message}`;
    })
    .join('; ');
}

/** Checks that the account exists and may publish lots (a platform, or the master account). */
async function requirePlatform(em: EntityManager, platformId: string): Promise<void> {
  const rows = ACCOUNT_ID.test(platformId)
    ? await rowsOf<Pick<AccountColumns, 'account_type'>>(em, sql`select account_type from accounts where id = ${platformId}`)
    : [];
  const type = rows[0]?.account_type;
  if (type !== AccountType.Platform && type !== AccountType.Master) {
    throw invalid('platform_not_found', `${platformId} is not a platform account`, { field: 'platformId' });
  }
}

/**
 * Reads a feed line by line, validates each, and upserts the valid ones in batches (one
 * transaction a batch). A rejected line is reported, never fatal.
 */
export async function importLots(
  em: EntityManager,
  source: ImportSource,
  lines: AsyncIterable<string> | Iterable<string>,
  opts: ImportOptions,
): Promise<ImportSummary> {
  // Taken before the first await: a readline interface drops the lines it reads while no one iterates.
  const iterator = Symbol.asyncIterator in lines ? lines[Symbol.asyncIterator]() : (lines as Iterable<string>)[Symbol.iterator]();
  if (!(source in IMPORT_SOURCES)) throw invalid('invalid_parameter', `unknown source ${String(source)}`, { field: 'source' });
  const batchSize = opts.batchSize ?? DEFAULT_BATCH_SIZE;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw invalid('invalid_parameter', 'batch size must be a positive integer', { field: 'batchSize' });
  const fork = em.fork();
  await requirePlatform(fork, opts.platformId);
  const schema = feedLineSchema(opts.reference ?? new ReferenceService());

  const summary: ImportSummary = { source, lines: 0, created: 0, updated: 0, unchanged: 0, rejected: 0, rejections: [] };
  const progress = () => {
    const { rejections: _r, source: _s, ...counts } = summary;
    opts.onProgress?.(counts);
  };
  const reject = (line: number, reason: string) => {
    summary.rejected += 1;
    if (summary.rejections.length < MAX_LISTED_REJECTIONS) summary.rejections.push({ line, reason });
  };

  let batch = new Map<string, FeedLotRow>();
  const flush = async () => {
    if (!batch.size) return;
    const rows = [...batch.values()];
    batch = new Map();
    const written = await inTransaction({ em: fork }, (tx) =>
      rowsOf<Upserted>(tx, { text: UPSERT, params: [JSON.stringify(rows)] }),
    );
    const created = written.filter((r) => r.created).length;
    summary.created += created;
    summary.updated += written.length - created;
    summary.unchanged += rows.length - written.length;
    progress();
  };

  for await (const text of { [Symbol.asyncIterator]: () => iterator }) {
    const lineNo = ++summary.lines;
    if (text.trim() === '') {
      progress();
      continue;
    }
    let row: FeedLotRow | null = null;
    if (text.length > MAX_LINE_LENGTH) {
      reject(lineNo, `line longer than ${MAX_LINE_LENGTH} characters`);
    } else {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (err) {
        reject(lineNo, `invalid JSON: ${(err as Error).message}`);
        progress();
        continue;
      }
      const parsed = schema.safeParse(value);
      if (parsed.success) row = feedLotRowOf(source, parsed.data, opts.platformId);
      else reject(lineNo, reasonOf(parsed.error, value));
    }
    if (row) {
      // One statement cannot touch a row twice: a lot repeated within the batch starts a new one,
      // so the later line wins.
      if (batch.has(row.source_lot_id)) await flush();
      batch.set(row.source_lot_id, row);
      if (batch.size >= batchSize) await flush();
    }
    progress();
  }
  await flush();
  return summary;
}
