import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../core/context';
import { managesLotSql } from '../../core/policies';
import { rowsOf } from '../../db/query';
import { sql } from '../../db/sql';
import { BID_COLUMNS, type BidColumns, bidOfColumns } from './bids.columns';
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
