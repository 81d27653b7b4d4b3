import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../core/context';
import { Money } from '../../core/money';
import { managesLotSql } from '../../core/policies';
import { timestamp } from '../../db/raw';
import { rowsOf } from '../../db/query';
import { sql } from '../../db/sql';
import type { BidRow } from './bids.entity';

interface BidColumns {
  id: string;
  lot_id: string;
  participant_id: string;
  account_id: string;
  amount: string;
  placed_by_proxy: boolean;
  created_at: string;
}

/**
 * The newest `last` bids of each account that the caller may see as that account's: its own, and
 * those on lots it manages (`seesLotRow`, which names a lot's bidders). Newest first.
 */
export async function bidsOfAccounts(em: EntityManager, caller: Caller, accountIds: readonly string[], last: number): Promise<BidRow[]> {
  const rows = await rowsOf<BidColumns>(
    em,
    sql`select id, lot_id, participant_id, account_id, amount, placed_by_proxy, created_at from (
      select b.*, row_number() over (partition by b.account_id order by b.id desc) as n
      from bids b join lots l on l.id = b.lot_id
      where b.account_id = any (${sql.array(accountIds, 'text')}) and (b.account_id = ${caller.accountId} or ${managesLotSql(caller, sql`l`)})
    ) seen where n <= ${last} order by account_id, id desc`,
  );
  return rows.map((r) => ({
    id: String(r.id),
    lotId: String(r.lot_id),
    participantId: String(r.participant_id),
    accountId: r.account_id,
    amount: new Money(r.amount),
    placedByProxy: r.placed_by_proxy,
    createdAt: timestamp(r.created_at) as Date,
  }));
}
