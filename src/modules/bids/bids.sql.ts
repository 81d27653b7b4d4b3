import { formatMoney, Money } from '../../core/money';
import { timestamp, type Rows, type Statement } from '../../db/raw';
import type { LotState, LotType } from '../lots/lots.entity';
import type { PublishedNotification } from '../notifications/notifications.bus';
import { NotificationType, typeStrOf } from '../notifications/notifications.entity';
import { staffQuery } from '../../core/policies';
import type { ParticipantState } from '../trading/trading.entity';
import type { PlannedBid } from './bids.auction';
import type { BidRow } from './bids.entity';

/** What a round of bids reads of its lot, locked. */
export interface LotRow {
  id: string;
  lotType: LotType;
  lotState: LotState;
  winnerId: string | null;
  startPrice: Money;
  minStep: Money;
  maxStep: Money;
  highestBid: Money | null;
  startTime: Date;
  endTime: Date;
  organizerId: string;
  publisherId: string;
}

/** A participant as a round of bids reads and changes it. */
export interface ParticipantRow {
  id: string;
  accountId: string;
  state: ParticipantState;
  currentBid: Money | null;
  maxBid: Money | null;
  maxBidAt: Date | null;
  updatedAt: Date;
}


const money = (v: string | null) => (v === null ? null : new Money(v));
const text = (m: Money | null) => (m === null ? null : formatMoney(m));

/**
 * The statements that open a round: lock the lot's row (bids of every instance queue here),
 * then read the bidders of the round, the live max bids and the leader (whose current bid is the
 * highest). They travel with the transaction's `begin` in one round trip; the second runs once
 * the lock is held and sees what the previous holder committed.
 */
export function openRound(lotId: string, accountIds: string[]): Statement[] {
  return [
    {
      text: `select id, lot_type, lot_state, winner_id, start_price, min_step, max_step, highest_bid, start_time, end_time, organizer_id, publisher_id
               from lots where id = ? for update`,
      params: [lotId],
    },
    {
      text: `select id, account_id, state, current_bid, max_bid, max_bid_at, updated_at from participants
              where lot_id = ? and (account_id = any (array[?]::text[]) or (state = 0 and max_bid is not null)
                                   or current_bid = (select highest_bid from lots where id = ?))`,
      params: [lotId, accountIds, lotId],
    },
  ];
}

export function lotRowOf(rows: Record<string, unknown>[]): LotRow | null {
  const r = rows[0];
  if (!r) return null;
  return {
    id: r.id as string,
    lotType: r.lot_type as LotType,
    lotState: r.lot_state as LotState,
    winnerId: r.winner_id as string | null,
    startPrice: new Money(r.start_price as string),
    minStep: new Money(r.min_step as string),
    maxStep: new Money(r.max_step as string),
    highestBid: money(r.highest_bid as string | null),
    startTime: timestamp(r.start_time) as Date,
    endTime: timestamp(r.end_time) as Date,
    organizerId: r.organizer_id as string,
    publisherId: r.publisher_id as string,
  };
}

export function participantRowsOf(rows: Record<string, unknown>[]): ParticipantRow[] {
  return rows.map((r) => ({
    id: r.id as string,
    accountId: r.account_id as string,
    state: r.state as ParticipantState,
    currentBid: money(r.current_bid as string | null),
    maxBid: money(r.max_bid as string | null),
    maxBidAt: timestamp(r.max_bid_at),
    updatedAt: timestamp(r.updated_at) as Date,
  }));
}

export interface WrittenRound {
  bids: BidRow[];
  notifications: PublishedNotification[];
}

/**
 * Writes a round in one statement: its bids in the order they were placed, the participants it
 * changed, the lot's highest bid, and an overbid notification for each account in `overbid` and
 * for the staff of the lot's publisher (PROTOCOL.md §7, type 6). `writtenRound` reads its answer.
 */
export function writeRound(lot: LotRow, bids: PlannedBid[], changed: ParticipantRow[], overbid: string[], at: Date): Statement {
  return {
    text: `with placed as (
       insert into bids (lot_id, participant_id, account_id, amount, placed_by_proxy, created_at)
       select ?::bigint, b.participant_id, b.account_id, b.amount, b.by_proxy, ?::timestamptz
         from unnest(array[?]::bigint[], array[?]::text[], array[?]::numeric[], array[?]::boolean[]) with ordinality as b(participant_id, account_id, amount, by_proxy, n)
        order by b.n
       returning id::text, participant_id::text, account_id, amount::text, placed_by_proxy
     ), moved as (
       update participants p set current_bid = v.current_bid, max_bid = v.max_bid, max_bid_at = v.max_bid_at, updated_at = ?
         from unnest(array[?]::bigint[], array[?]::numeric[], array[?]::numeric[], array[?]::timestamptz[]) as v(id, current_bid, max_bid, max_bid_at)
        where p.id = v.id
     ), raised as (
       update lots set highest_bid = ?::numeric, updated_at = ? where id = ? and highest_bid is distinct from ?::numeric
     ), staff as (
       ${staffQuery('?')}
     ), noted as (
       insert into notifications (recipient, type, meta)
       select r.recipient, ${NotificationType.Overbid}, jsonb_build_object('lot_id', ?::text)
         from unnest(array[?]::text[]) with ordinality as o(account, n)
        cross join lateral (select o.account as recipient union select id from staff) r
        order by o.n, r.recipient
       returning id::text, recipient, meta, created_at::text
     )
     select (select coalesce(json_agg(p order by p.id::bigint), '[]') from placed p) as bids,
            (select coalesce(json_agg(n order by n.id::bigint), '[]') from noted n) as notifications`,
    // In the order of the placeholders above.
    params: [
      lot.id,
      at,
      bids.map((b) => b.participantId),
      bids.map((b) => b.accountId),
      bids.map((b) => formatMoney(b.amount)),
      bids.map((b) => b.byProxy),
      at,
      changed.map((p) => p.id),
      changed.map((p) => text(p.currentBid)),
      changed.map((p) => text(p.maxBid)),
      changed.map((p) => p.maxBidAt),
      text(lot.highestBid),
      at,
      lot.id,
      text(lot.highestBid),
      lot.publisherId,
      lot.publisherId,
      lot.publisherId,
      lot.id,
      overbid,
    ],
  };
}

/** The bids and notifications `writeRound` wrote. */
export function writtenRound(lot: LotRow, rows: Rows, at: Date): WrittenRound {
  const written = rows[0] as { bids: Record<string, string | boolean>[]; notifications: Record<string, string>[] };
  return {
    bids: written.bids.map((b) => ({
      id: b.id as string,
      lotId: lot.id,
      participantId: b.participant_id as string,
      accountId: b.account_id as string,
      amount: new Money(b.amount as string),
      placedByProxy: b.placed_by_proxy as boolean,
      createdAt: at,
    })),
    notifications: written.notifications.map((n) => ({
      id: n.id,
      recipient: n.recipient,
      type: NotificationType.Overbid,
      typeStr: typeStrOf(NotificationType.Overbid),
      meta: n.meta as unknown as Record<string, string>,
      createdAt: timestamp(n.created_at) as Date,
    })),
  };
}
