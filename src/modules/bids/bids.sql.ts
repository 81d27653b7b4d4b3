import { formatMoney, Money } from '../../core/money';
import { timestamp, type Rows, type Statement } from '../../db/raw';
import { sql, type Sql } from '../../db/sql';
import type { Lot, LotState, LotType } from '../lots';
import { staffQuery } from '../../core/policies';
import type { BatchRow } from '../notifications';
import { ParticipantState, type Participant } from '../trading';
import type { PlannedBid } from './bids.auction';
import { appendCtes, holdKeyPeriod, type LogEntryRow } from '../bidlog';

/** A bid of a round with its drawn id and its bid log entry. */
export type LoggedBid = PlannedBid & { id: string; entry: LogEntryRow };
import type { BidRow } from './bids.entity';
import { lotRulesColumn, lotRulesOf, type LotRules } from '../rules';

/** What a round of bids reads of its lot, locked, with the platform rules the lot was created with (null: none). */
export type LotRow = Pick<
  Lot,
  'id' | 'lotType' | 'lotState' | 'winnerId' | 'startPrice' | 'minStep' | 'maxStep' | 'highestBid' | 'reservePrice' | 'startTime' | 'endTime' | 'organizerId' | 'publisherId'
> & { rules: LotRules | null };

/** A participant as a round of bids reads and changes it. */
export type ParticipantRow = Pick<Participant, 'id' | 'accountId' | 'state' | 'currentBid' | 'maxBid' | 'maxBidAt' | 'maxBidDigest' | 'updatedAt'>;

const money = (v: string | null) => (v === null ? null : new Money(v));
const text = (m: Money | null) => (m === null ? null : formatMoney(m));

/**
 * The statements that open a round: lock the lot's row (bids of every instance queue here; `no
 * key update` excludes every other bid round and every FOR SHARE or FOR UPDATE reader of the lot
 * alike, and spares only the key checks of rows that merely reference the lot),
 * then read the bidders of the round, the live max bids and the leader (whose current bid is the
 * highest), then the head of the lot's bid log and ids for the bids the round may place (at most
 * three a request: its own bid and two proxy answers), so that their log entries are hashed before
 * the one statement that writes both. Ids drawn under the lock keep a lot's bids increasing in id;
 * unused ones are gaps, as any rolled back insert leaves. They travel with the transaction's `begin`
 * in one round trip; those after the first run once the lock is held and see what the previous
 * holder committed. A round that appends leaves to the transparency log holds its key's period.
 */
export function openRound(lotId: string, accountIds: string[], bidsAtMost: number, appends: boolean): Statement[] {
  return [
    sql.render(sql`select id, lot_type, lot_state, winner_id, start_price, min_step, max_step, highest_bid, reserve_price, start_time, end_time, organizer_id, publisher_id,
                      ${lotRulesColumn}
               from lots where id = ${lotId} for no key update`),
    sql.render(sql`select id, account_id, state, current_bid, max_bid, max_bid_at, max_bid_digest, updated_at from participants
              where lot_id = ${lotId} and (account_id = any (${sql.array(accountIds, 'text')}) or (state = ${ParticipantState.Pending} and max_bid is not null)
                                   or current_bid = (select highest_bid from lots where id = ${lotId}))`),
    sql.render(sql`select seq, hash from bid_log where lot_id = ${lotId} order by seq desc limit 1`),
    sql.render(sql`select nextval('bids_id_seq')::text as id from generate_series(1, ${bidsAtMost})`),
    // Last, once the lot's lock is held: the round's leaves go into the log under its key's period.
    ...(appends ? [sql.render(holdKeyPeriod)] : []),
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
    reservePrice: money(r.reserve_price as string | null),
    startTime: timestamp(r.start_time) as Date,
    endTime: timestamp(r.end_time) as Date,
    organizerId: r.organizer_id as string,
    publisherId: r.publisher_id as string,
    rules: lotRulesOf(r.rules),
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
    maxBidDigest: r.max_bid_digest as string | null,
    updatedAt: timestamp(r.updated_at) as Date,
  }));
}

/**
 * Who is told of the overbids (notification type 6): each account in `overbid`, in order, and
 * with each the staff of the lot's publisher; rows `(recipient, n)` for `insertBatch`.
 */
export function overbidRecipients(lot: LotRow, overbid: string[]): Sql {
  return sql`select r.recipient, o.n from unnest(${sql.array(overbid, 'text')}) with ordinality as o(account, n)
        cross join lateral (select o.account as recipient union select id from (${staffQuery(lot.publisherId)}) staff) r`;
}

/** The bench's baseline without the transparency log (TLOG_APPEND=off): the round appends no leaf. */
const NO_LEAVES = sql`tlog_appended as (select null::bigint as bid_id, null::bigint as idx where false)`;

/**
 * Writes a round in one statement: its bids (with the ids drawn by `openRound`) in the order they
 * were placed and their bid log entries, the participants it changed, the lot's highest bid, its
 * bidders' counts of the hour for the platform statistics (bids.stats.ts), and the notifications
 * `notify` inserts, with their leaves in the transparency log while `signer` signs it (none when null,
 * the bench's baseline). `writtenRound` reads its answer.
 */
export function writeRound(lot: LotRow, bids: LoggedBid[], changed: ParticipantRow[], notify: Sql, at: Date, signer: string | null): Statement {
  const leaves = signer === null ? NO_LEAVES : appendCtes(lot.id, bids.flatMap((b) => (b.entry.leaf ? [{ ...b.entry.leaf, bidId: b.id, kind: 'bid' }] : [])), signer, true);
  return sql.render(sql`with placed as (
       insert into bids (id, lot_id, participant_id, account_id, amount, placed_by_proxy, created_at)
       select b.id, ${lot.id}::bigint, b.participant_id, b.account_id, b.amount, b.by_proxy, ${at}::timestamptz
         from unnest(${sql.array(bids.map((b) => b.id), 'bigint')}, ${sql.array(bids.map((b) => b.participantId), 'bigint')}, ${sql.array(bids.map((b) => b.accountId), 'text')},
                     ${sql.array(bids.map((b) => formatMoney(b.amount)), 'numeric')}, ${sql.array(bids.map((b) => b.byProxy), 'boolean')})
              with ordinality as b(id, participant_id, account_id, amount, by_proxy, n)
        order by b.n
       returning id::text, participant_id::text, account_id, amount::text, placed_by_proxy
     ), logged as (
       insert into bid_log (bid_id, lot_id, seq, request_digest, bidder_salt, hash)
       select e.bid_id, ${lot.id}::bigint, e.seq, e.request_digest, e.salt, e.hash
         from unnest(${sql.array(bids.map((b) => b.id), 'bigint')}, ${sql.array(bids.map((b) => b.entry.seq), 'integer')}, ${sql.array(bids.map((b) => b.digest), 'text')},
                     ${sql.array(bids.map((b) => b.entry.salt), 'text')}, ${sql.array(bids.map((b) => b.entry.hash), 'text')})
              as e(bid_id, seq, request_digest, salt, hash)
     ), ${leaves}, moved as (
       update participants p set current_bid = v.current_bid, max_bid = v.max_bid, max_bid_at = v.max_bid_at, max_bid_digest = v.max_bid_digest, updated_at = ${at}
         from unnest(${sql.array(changed.map((p) => p.id), 'bigint')}, ${sql.array(changed.map((p) => text(p.currentBid)), 'numeric')},
                     ${sql.array(changed.map((p) => text(p.maxBid)), 'numeric')}, ${sql.array(changed.map((p) => p.maxBidAt), 'timestamptz')},
                     ${sql.array(changed.map((p) => p.maxBidDigest), 'text')})
              as v(id, current_bid, max_bid, max_bid_at, max_bid_digest)
        where p.id = v.id
     ), raised as (
       update lots set highest_bid = ${text(lot.highestBid)}::numeric, updated_at = ${at}
        where id = ${lot.id} and highest_bid is distinct from ${text(lot.highestBid)}::numeric
     ), counted as (
       insert into bid_activity (platform_id, hour, account_id, bids)
       select ${lot.publisherId}, date_trunc('hour', ${at}::timestamptz, 'UTC'), b.account_id, count(*)
         from unnest(${sql.array(bids.map((b) => b.accountId), 'text')}) as b(account_id) group by b.account_id
       on conflict (platform_id, hour, account_id) do update set bids = bid_activity.bids + excluded.bids
     ), noted as (
       ${notify}
     )
     select (select coalesce(json_agg(p order by p.id::bigint), '[]') from placed p) as bids,
            (select coalesce(json_agg(n order by n.id::bigint), '[]') from noted n) as notifications,
            (select coalesce(json_object_agg(a.bid_id::text, a.idx), '{}') from tlog_appended a where a.idx is not null) as indexes`);
}

/**
 * The bids `writeRound` wrote, the rows of its notifications for `publishedBatch`, and the log's
 * indexes of the bids' leaves when the round numbered them (by bid id).
 */
export function writtenRound(lot: LotRow, rows: Rows, at: Date): { bids: BidRow[]; notifications: BatchRow[]; indexes: Map<string, number> } {
  const written = rows[0] as { bids: Record<string, string | boolean>[]; notifications: BatchRow[]; indexes: Record<string, number> };
  return {
    indexes: new Map(Object.entries(written.indexes)),
    bids: written.bids.map((b) => ({
      id: b.id as string,
      lotId: lot.id,
      participantId: b.participant_id as string,
      accountId: b.account_id as string,
      amount: new Money(b.amount as string),
      placedByProxy: b.placed_by_proxy as boolean,
      createdAt: at,
    })),
    notifications: written.notifications,
  };
}
