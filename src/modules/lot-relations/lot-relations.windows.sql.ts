import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../core/context';
import type { ListWindow, WindowPage } from '../../core/list-window';
import { seesLotRowSql, seesParticipantSql } from '../../core/policies';
import { sql, type Sql } from '../../db/sql';
import { windowsOf, type WindowOrder } from '../../db/window';
import { BID_COLUMNS_OF_B, type BidColumns, bidOfColumns, type BidRow } from '../bids';
import { type Participant, participantColumns, type ParticipantColumns, participantOfColumns } from '../trading';

// The windows of a lot's row connections, for all the lots of a request in one statement: each
// lot's list is read by keyset, so a page costs its rows and the lot's count, not the lot's whole
// list, and the caller's visibility is a condition of the list, so pages and counts hold only
// what the caller may see.

/** The same window of each lot's rows `from` (joined to their lot `l`) in `order`, kept where `where` holds. */
function windowsOfLots<R extends object>(em: EntityManager, lotIds: readonly string[], window: ListWindow, list: { columns: Sql; from: Sql; lotId: Sql; where: Sql; order: WindowOrder }): Promise<WindowPage<R>[]> {
  return windowsOf<R>(em, { columns: list.columns, from: list.from, where: (lot) => sql`${list.lotId} = ${lot}::bigint and ${list.where}`, order: list.order }, window, lotIds);
}

/** The window of each lot's bids, newest first: every bid, its bidder shown as the caller may see it (`seenBids`). */
export async function bidWindowsOfLots(em: EntityManager, lotIds: readonly string[], window: ListWindow): Promise<WindowPage<BidRow>[]> {
  const pages = await windowsOfLots<BidColumns>(em, lotIds, window, {
    columns: BID_COLUMNS_OF_B,
    from: sql`bids b`,
    lotId: sql`b.lot_id`,
    where: sql`true`,
    order: { key: null, id: sql`b.id` },
  });
  return pages.map((page) => ({ ...page, items: page.items.map(bidOfColumns) }));
}

/** The window of each lot's participants that `caller` may see (`seesParticipantSql`, as `participantsOfLots` reads them), newest first. */
export async function participantWindowsOfLots(em: EntityManager, caller: Caller | null, lotIds: readonly string[], window: ListWindow): Promise<WindowPage<Participant>[]> {
  const pages = await windowsOfLots<ParticipantColumns>(em, lotIds, window, {
    columns: participantColumns(sql`x`),
    from: sql`participants x join lots l on l.id = x.lot_id`,
    lotId: sql`x.lot_id`,
    where: seesParticipantSql(caller, sql`l`, sql`x.account_id`),
    order: { key: null, id: sql`x.id` },
  });
  return pages.map((page) => ({ ...page, items: page.items.map(participantOfColumns) }));
}

/** A lot's private rows of one table: by id, or (`byCreation`: stars, keyed by their account) by creation. */
export interface PrivateRows {
  table: Sql;
  byCreation: boolean;
}

/**
 * The window of each lot's private rows of `rows.table` that `caller` may see (`seesLotRowSql`:
 * all to the lot's managers, else the caller's own), newest first, as the table's columns.
 */
export function privateWindowsOfLots(em: EntityManager, caller: Caller | null, lotIds: readonly string[], window: ListWindow, rows: PrivateRows): Promise<WindowPage<Record<string, unknown>>[]> {
  return windowsOfLots<Record<string, unknown>>(em, lotIds, window, {
    columns: sql`r.*`,
    from: sql`${rows.table} r join lots l on l.id = r.lot_id`,
    lotId: sql`r.lot_id`,
    where: seesLotRowSql(caller, sql`l`, sql`r.account_id`),
    order: rows.byCreation ? { key: sql`r.created_at`, id: sql`r.account_id`, textId: true } : { key: null, id: sql`r.id` },
  });
}
