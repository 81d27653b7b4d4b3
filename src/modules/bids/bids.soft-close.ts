import { rfc3339 } from '../../core/time';
import type { Rows, Statement } from '../../db/raw';
import { sql } from '../../db/sql';
import type { LotTimes } from '../lots';
import type { LotType } from '../lots';
import { type PublishedNotification, NotificationType, type BatchRow, type NotificationsService } from '../notifications';
import type { LotRules } from '../rules';
import { ParticipantState } from '../trading';

/** What soft close looks at of a lot, as the bid round locked it. */
interface SoftCloseLot {
  id: string;
  lotType: LotType;
  startTime: Date;
  endTime: Date;
  rules: LotRules | null;
}

/** A move of a lot's end, written in the transaction of the bids that caused it. */
export interface Extension {
  statement: Statement;
  lot: LotTimes;
  /** The participants' notices, from what the statement answered. */
  published(rows: Rows): PublishedNotification[];
}

/**
 * The new end of a lot whose rules have soft close, when a bid accepted at `at` falls in the
 * last `extendWindow` seconds: `max(end, at + extendBy)` (to the next whole second, as lot times
 * are), but no more than `maxExtensionSeconds` past the end the lot was created with. The cap is
 * on time, not on moves, so that bids a second apart spend a second each and a late snipe still
 * gets what is left. Null when the end stays.
 */
export function extendedEnd(lot: SoftCloseLot, at: Date): Date | null {
  const r = lot.rules;
  if (!r || r.extendWindow === null || r.extendBy === null) return null;
  const end = lot.endTime.getTime();
  if (end - at.getTime() > r.extendWindow * 1000) return null;
  const moved = Math.ceil((at.getTime() + r.extendBy * 1000) / 1000) * 1000;
  const capped = r.maxExtensionSeconds === null ? moved : Math.min(moved, end + (r.maxExtensionSeconds - r.extendedSeconds) * 1000);
  return capped > end ? new Date(capped) : null;
}

/**
 * Soft close for a round that accepted bids at `at`: the statement that moves the lot's end
 * (with its duration, so that start + duration stays the end) and counts the extension, and the
 * lot_extended notices to the lot's participants still in the running. Null when the end stays.
 * The lot row passed in is changed to the new end, so the round answers it.
 */
export function softClose(lot: SoftCloseLot, at: Date, notifications: NotificationsService): Extension | null {
  const end = extendedEnd(lot, at);
  if (!end) return null;
  const duration = Math.round((end.getTime() - lot.startTime.getTime()) / 1000);
  const added = Math.round((end.getTime() - lot.endTime.getTime()) / 1000);
  const recipients = sql`select account_id as recipient, 1 as n from participants
    where lot_id = ${lot.id} and state in (${sql.list([ParticipantState.Pending, ParticipantState.DepositPending])})`;
  const notify = notifications.insertBatch(NotificationType.LotExtended, recipients, { lot_id: lot.id, end_time: rfc3339(end) });
  const statement = sql.render(sql`with moved as (
       update lots set end_time = ${end}::timestamptz, duration = ${duration}, extensions = extensions + 1,
         extended_seconds = extended_seconds + ${added}, updated_at = ${at}::timestamptz where id = ${lot.id}
     ), noted as (
       ${notify}
     )
     select coalesce(json_agg(n order by n.id::bigint), '[]') as notifications from noted n`);
  lot.endTime = end;
  return {
    statement,
    lot: { id: lot.id, lotType: lot.lotType, endTime: end },
    published: (rows) => notifications.publishedBatch((rows[0] as { notifications: BatchRow[] }).notifications),
  };
}
