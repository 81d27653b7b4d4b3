import { Money } from '../../core/money';
import { timestamp } from '../../db/raw';
import { sql, type Sql } from '../../db/sql';
import type { BidRow } from './bids.entity';

/** A `bids` row as a statement selecting `BID_COLUMNS` answers it: ids and amounts as text. */
export interface BidColumns {
  id: string;
  lot_id: string;
  participant_id: string;
  account_id: string;
  amount: string;
  placed_by_proxy: boolean;
  created_at: string | Date;
}

export const BID_COLUMNS = sql`id, lot_id, participant_id, account_id, amount, placed_by_proxy, created_at`;

/** `BID_COLUMNS` of the bids table under the alias `b`, in a statement that joins it to others. */
export const BID_COLUMNS_OF_B: Sql = sql`b.id, b.lot_id, b.participant_id, b.account_id, b.amount, b.placed_by_proxy, b.created_at`;

export const bidOfColumns = (r: BidColumns): BidRow => ({
  id: String(r.id),
  lotId: String(r.lot_id),
  participantId: String(r.participant_id),
  accountId: r.account_id,
  amount: new Money(r.amount),
  placedByProxy: r.placed_by_proxy,
  createdAt: timestamp(r.created_at) as Date,
});
