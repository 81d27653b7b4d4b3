import { sql, type Sql } from '../../db/sql';
import { LotState } from './lots.entity';

// Whether a lot is closed, has ended, is open: each rule in TypeScript beside its statement and
// ORM twins, which test/lots/lots-open-twins.test.ts runs on the same rows. Change them together.

type Timed = { lotState: LotState; winnerId: string | null; startTime: Date; endTime: Date };

/** The lots table's alias in most statements. */
const L = sql`l`;

/** A closed lot (sold or finished) takes no participation, bid, winner choice or buy now. */
export const isClosed = (lot: Pick<Timed, 'lotState'>): boolean => lot.lotState !== LotState.Pending;

/** `!isClosed` of the lot row `lots` (the table's alias or name): still pending. */
export const notClosedSql = (lots: Sql = L): Sql => sql`${lots}.lot_state = ${LotState.Pending}`;

/** Its end time has come: a lot whose soft close moved the end ends at the new one. */
export const hasEnded = (lot: Pick<Timed, 'endTime'>, now: Date): boolean => lot.endTime.getTime() <= now.getTime();

/** Open: neither closed nor ended. A scheduled lot (not started yet) is open; it takes no bids before its start. */
export const isOpen = (lot: Pick<Timed, 'lotState' | 'endTime'>, now: Date): boolean => !isClosed(lot) && !hasEnded(lot, now);

/** `isOpen` of the lot row `lots`. */
export const openSql = (now: Date, lots: Sql = L): Sql => sql`(${lots}.lot_state = ${LotState.Pending} and ${lots}.end_time > ${now})`;

/** `!isOpen` of the lot row `lots`, as a disjunction that an index on either column serves. */
export const overSql = (now: Date, lots: Sql = L): Sql => sql`(${lots}.lot_state <> ${LotState.Pending} or ${lots}.end_time <= ${now})`;

/** `isOpen` as a filter of the ORM's queries of lots. */
export const openWhere = (now: Date) => ({ lotState: LotState.Pending, endTime: { $gt: now } });

/** A lot takes bids while it is open, has no winner and has started. */
export const takesBids = (lot: Timed, now: Date): boolean => isOpen(lot, now) && lot.winnerId === null && lot.startTime <= now;

/**
 * Where a lot stands, as a dashboard tells lots apart: `scheduled` (pending, not started), `live`
 * (taking bids), `ended` (pending, but its end has come or a winner was chosen: it awaits its
 * organizer's close), `sold`, `finished` (closed without a sale, a lapsed reserve included).
 */
export type LotStatus = 'scheduled' | 'live' | 'ended' | 'sold' | 'finished';
export const LOT_STATUSES: Readonly<Record<LotStatus, LotStatus>> = { scheduled: 'scheduled', live: 'live', ended: 'ended', sold: 'sold', finished: 'finished' };

export function lotStatus(lot: Timed, now: Date): LotStatus {
  if (lot.lotState === LotState.Sold) return 'sold';
  if (lot.lotState === LotState.Finished) return 'finished';
  if (hasEnded(lot, now) || lot.winnerId !== null) return 'ended';
  return lot.startTime > now ? 'scheduled' : 'live';
}
