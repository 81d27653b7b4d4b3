import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../core/context';
import { Money } from '../../core/money';
import { seesParticipantSql } from '../../core/policies';
import { rawQuery, timestamp } from '../../db/raw';
import { sql, type Sql } from '../../db/sql';
import { type Bid, BID_COLUMNS, type BidColumns, bidOfColumns } from '../bids';
import type { Participant, ParticipantState } from '../trading';
import type { Callback } from '../watchlist';

// The rows every page of lots may show beside its lots (callbacks always, bids and participants
// when asked), read through the driver: read-only rows, where the ORM's query building and
// hydration cost more than the statement (a third of a listing's CPU for the callbacks alone).

const money = (v: string | null) => (v === null ? null : new Money(v));

/** The rows of a statement over the lots, in the shape declared beside it: ids and amounts as text, times as PostgreSQL's text. */
async function rowsOfLots<R>(em: EntityManager, query: (lotIds: Sql) => Sql, lotIds: readonly string[]): Promise<R[]> {
  const [{ rows }] = await rawQuery(em, sql.render(query(sql.array(lotIds, 'bigint'))));
  return rows as R[];
}

interface CallbackRow {
  id: string;
  lot_id: string;
  account_id: string;
  created_at: string;
}


interface ParticipantRow {
  id: string;
  lot_id: string;
  account_id: string;
  state: ParticipantState;
  requested_buy_now: boolean;
  current_bid: string | null;
  max_bid: string | null;
  max_bid_at: string | null;
  max_bid_digest: string | null;
  created_at: string;
  updated_at: string;
}

/** The callbacks of the lots, by id. */
export async function callbacksOfLots(em: EntityManager, lotIds: readonly string[]): Promise<Callback[]> {
  const rows = await rowsOfLots<CallbackRow>(em, (ids) => sql`select id, lot_id, account_id, created_at from callbacks where lot_id = any (${ids}) order by id`, lotIds);
  return rows.map((r) => ({ id: r.id, lotId: r.lot_id, accountId: r.account_id, createdAt: new Date(r.created_at) }));
}

/** The bids on the lots, by id (the order they were placed in). */
export async function bidsOfLots(em: EntityManager, lotIds: readonly string[]): Promise<Bid[]> {
  const rows = await rowsOfLots<BidColumns>(em, (ids) => sql`select ${BID_COLUMNS} from bids where lot_id = any (${ids}) order by id`, lotIds);
  return rows.map(bidOfColumns);
}

/** The participants of the lots that `caller` may see (`seesParticipantSql`, as the participant filters count them), by id. */
export async function participantsOfLots(em: EntityManager, caller: Caller | null, lotIds: readonly string[]): Promise<Participant[]> {
  const rows = await rowsOfLots<ParticipantRow>(
    em,
    (ids) => sql`select x.id, x.lot_id, x.account_id, x.state, x.requested_buy_now, x.current_bid, x.max_bid, x.max_bid_at, x.max_bid_digest, x.created_at, x.updated_at
                  from participants x join lots l on l.id = x.lot_id
                  where x.lot_id = any (${ids}) and ${seesParticipantSql(caller, sql`l`, sql`x.account_id`)} order by x.id`,
    lotIds,
  );
  return rows.map((r) => ({
    id: r.id,
    lotId: r.lot_id,
    accountId: r.account_id,
    state: r.state,
    requestedBuyNow: r.requested_buy_now,
    currentBid: money(r.current_bid),
    maxBid: money(r.max_bid),
    maxBidAt: timestamp(r.max_bid_at),
    maxBidDigest: r.max_bid_digest,
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  }));
}
