import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../core/context';
import type { ListWindow, WindowPage } from '../../core/list-window';
import { managesLotSql } from '../../core/policies';
import { rowsOf } from '../../db/query';
import { sql } from '../../db/sql';
import { windowsOf } from '../../db/window';
import { BID_COLUMNS, BID_COLUMNS_OF_B, type BidColumns, bidOfColumns } from './bids.columns';
import type { BidRow } from './bids.entity';

/**
 * The newest `last` bids of each account that the caller may see as that account's: its own, and
 * those on lots it manages (`seesLotRow`, which names a lot's bidders). Newest first.
 */
export async function bidsOfAccounts(em: EntityManager, caller: Caller, accountIds: readonly string[], last: number): Promise<BidRow[]> {
  const rows = await rowsOf<BidColumns>(
    em,
    sql`select ${BID_COLUMNS} from (
      select b.*, row_number() over (partition by b.account_id order by b.id desc) as n
      from bids b join lots l on l.id = b.lot_id
      where b.account_id = any (${sql.array(accountIds, 'text')}) and (b.account_id = ${caller.accountId} or ${managesLotSql(caller, sql`l`)})
    ) seen where n <= ${last} order by account_id, id desc`,
  );
  return rows.map(bidOfColumns);
}

/**
 * The window of each account's bids that the caller may see as that account's (as
 * `bidsOfAccounts` shows them), newest first, in one statement for all the accounts.
 */
export async function bidWindowsOfAccounts(em: EntityManager, caller: Caller, accountIds: readonly string[], window: ListWindow): Promise<WindowPage<BidRow>[]> {
  const pages = await windowsOf<BidColumns>(
    em,
    {
      columns: BID_COLUMNS_OF_B,
      from: sql`bids b join lots l on l.id = b.lot_id`,
      where: (account) => sql`b.account_id = ${account} and (b.account_id = ${caller.accountId} or ${managesLotSql(caller, sql`l`)})`,
      order: { key: null, id: sql`b.id` },
    },
    window,
    accountIds,
  );
  return pages.map((page) => ({ ...page, items: page.items.map(bidOfColumns) }));
}
