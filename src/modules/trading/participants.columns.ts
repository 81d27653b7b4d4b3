import { Money } from '../../core/money';
import { timestamp } from '../../db/raw';
import { sql, type Sql } from '../../db/sql';
import type { Participant, ParticipantState } from './trading.entity';

/** A `participants` row as a statement selecting `participantColumns` answers it: ids and amounts as text. */
export interface ParticipantColumns {
  id: string;
  lot_id: string;
  account_id: string;
  state: ParticipantState;
  requested_buy_now: boolean;
  current_bid: string | null;
  max_bid: string | null;
  max_bid_at: string | Date | null;
  max_bid_digest: string | null;
  created_at: string | Date;
  updated_at: string | Date;
}

/** The columns a standing shows: all but the max bid's time and digest, which stay with the bid round. */
export type StandingColumns = Omit<ParticipantColumns, 'max_bid_at' | 'max_bid_digest'>;

/** The columns of `StandingColumns`, of the participants table named `table` in the statement. */
export const standingColumns = (table: Sql) =>
  sql`${table}.id, ${table}.lot_id, ${table}.account_id, ${table}.state, ${table}.requested_buy_now, ${table}.current_bid, ${table}.max_bid, ${table}.created_at, ${table}.updated_at`;

/** The columns of `ParticipantColumns`, of the participants table named `table` in the statement. */
export const participantColumns = (table: Sql) => sql`${standingColumns(table)}, ${table}.max_bid_at, ${table}.max_bid_digest`;

const money = (v: string | null) => (v === null ? null : new Money(v));

export const standingOfColumns = (r: StandingColumns) => ({
  id: String(r.id),
  lotId: String(r.lot_id),
  accountId: r.account_id,
  state: r.state,
  requestedBuyNow: r.requested_buy_now,
  currentBid: money(r.current_bid),
  maxBid: money(r.max_bid),
  createdAt: timestamp(r.created_at) as Date,
  updatedAt: timestamp(r.updated_at) as Date,
});

export const participantOfColumns = (r: ParticipantColumns): Participant => ({
  ...standingOfColumns(r),
  maxBidAt: timestamp(r.max_bid_at),
  maxBidDigest: r.max_bid_digest,
});
