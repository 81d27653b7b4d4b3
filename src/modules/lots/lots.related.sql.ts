import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../core/context';
import { seesParticipantSql } from '../../core/policies';
import { Money } from '../../core/money';
import { rawQuery, timestamp, type Rows } from '../../db/raw';
import { sql, type Sql } from '../../db/sql';
import type { Bid } from '../bids';
import type { Participant, ParticipantState } from '../trading';
import type { Callback } from '../watchlist';
import type { ListedLot } from './lots.entity';
import { LOT_COLUMNS, lotsOfRows } from './lots.rows';

// The rows every page of lots may show beside its lots (callbacks always, bids and participants
// when asked), read through the driver: read-only rows, where the ORM's query building and
// hydration cost more than the statement (a third of a listing's CPU for the callbacks alone).

const money = (v: unknown) => (v === null ? null : new Money(v as string));

async function rowsOfLots(em: EntityManager, query: (lotIds: Sql) => Sql, lotIds: readonly string[]): Promise<Rows> {
  const [{ rows }] = await rawQuery(em, sql.render(query(sql.array(lotIds, 'bigint'))));
  return rows;
}

/** The callbacks of the lots, by id. */
export async function callbacksOfLots(em: EntityManager, lotIds: readonly string[]): Promise<Callback[]> {
  const rows = await rowsOfLots(em, (ids) => sql`select id, lot_id, account_id, created_at from callbacks where lot_id = any (${ids}) order by id`, lotIds);
  return rows.map((r) => ({ id: r.id as string, lotId: r.lot_id as string, accountId: r.account_id as string, createdAt: timestamp(r.created_at) as Date }));
}

/** The bids on the lots, by id (the order they were placed in). */
export async function bidsOfLots(em: EntityManager, lotIds: readonly string[]): Promise<Bid[]> {
  const rows = await rowsOfLots(
    em,
    (ids) => sql`select id, lot_id, participant_id, account_id, amount, placed_by_proxy, created_at from bids where lot_id = any (${ids}) order by id`,
    lotIds,
  );
  return rows.map((r) => ({
    id: r.id as string,
    lotId: r.lot_id as string,
    participantId: r.participant_id as string,
    accountId: r.account_id as string,
    amount: new Money(r.amount as string),
    placedByProxy: r.placed_by_proxy as boolean,
    createdAt: timestamp(r.created_at) as Date,
  }));
}

/** The participants of the lots that `caller` may see (`seesParticipantSql`, as the participant filters count them), by id. */
export async function participantsOfLots(em: EntityManager, caller: Caller | null, lotIds: readonly string[]): Promise<Participant[]> {
  const rows = await rowsOfLots(
    em,
    (ids) => sql`select x.id, x.lot_id, x.account_id, x.state, x.requested_buy_now, x.current_bid, x.max_bid, x.max_bid_at, x.max_bid_digest, x.created_at, x.updated_at
                  from participants x join lots l on l.id = x.lot_id
                  where x.lot_id = any (${ids}) and ${seesParticipantSql(caller, sql`l`, sql`x.account_id`)} order by x.id`,
    lotIds,
  );
  return rows.map((r) => ({
    id: r.id as string,
    lotId: r.lot_id as string,
    accountId: r.account_id as string,
    state: r.state as ParticipantState,
    requestedBuyNow: r.requested_buy_now as boolean,
    currentBid: money(r.current_bid),
    maxBid: money(r.max_bid),
    maxBidAt: timestamp(r.max_bid_at),
    maxBidDigest: r.max_bid_digest as string | null,
    createdAt: timestamp(r.created_at) as Date,
    updatedAt: timestamp(r.updated_at) as Date,
  }));
}

/** The newest `last` lots each account organized, newest first. */
export async function lotsOfOrganizers(em: EntityManager, accountIds: readonly string[], last: number): Promise<ListedLot[]> {
  const [{ rows }] = await rawQuery(
    em,
    sql.render(sql`select ${LOT_COLUMNS} from (
      select x.*, row_number() over (partition by x.organizer_id order by x.id desc) as n from lots x where x.organizer_id = any (${sql.array(accountIds, 'text')})
    ) l where l.n <= ${last} order by l.organizer_id, l.id desc`),
  );
  return lotsOfRows(rows);
}
