import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller } from '../../core/context';
import { seesParticipantSql } from '../../core/policies';
import { rawQuery } from '../../db/raw';
import { sql, type Sql } from '../../db/sql';
import { type Bid, BID_COLUMNS, type BidColumns, bidOfColumns } from '../bids';
import { type Participant, participantColumns, type ParticipantColumns, participantOfColumns } from '../trading';
import { BIDS_BESIDE_LOT } from '../lots';
import type { Callback } from '../watchlist';

// The rows every page of lots may show beside its lots (callbacks always, bids and participants
// when asked), read through the driver: read-only rows, where the ORM's query building and
// hydration cost more than the statement (a third of a listing's CPU for the callbacks alone).

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

/** The callbacks of the lots, by id. */
export async function callbacksOfLots(em: EntityManager, lotIds: readonly string[]): Promise<Callback[]> {
  const rows = await rowsOfLots<CallbackRow>(em, (ids) => sql`select id, lot_id, account_id, created_at from callbacks where lot_id = any (${ids}) order by id`, lotIds);
  return rows.map((r) => ({ id: r.id, lotId: r.lot_id, accountId: r.account_id, createdAt: new Date(r.created_at) }));
}

/** The bids each lot shows beside it (its newest `BIDS_BESIDE_LOT`), by id (the order they were placed in). */
export async function bidsOfLots(em: EntityManager, lotIds: readonly string[]): Promise<Bid[]> {
  const rows = await rowsOfLots<BidColumns>(
    em,
    (ids) => sql`select b.* from unnest(${ids}) as g(lot_id)
      cross join lateral (select ${BID_COLUMNS} from bids where lot_id = g.lot_id order by id desc limit ${BIDS_BESIDE_LOT}) b order by b.id`,
    lotIds,
  );
  return rows.map(bidOfColumns);
}

/** The participants of the lots that `caller` may see (`seesParticipantSql`, as the participant filters count them), by id. */
export async function participantsOfLots(em: EntityManager, caller: Caller | null, lotIds: readonly string[]): Promise<Participant[]> {
  const rows = await rowsOfLots<ParticipantColumns>(
    em,
    (ids) => sql`select ${participantColumns(sql`x`)}
                  from participants x join lots l on l.id = x.lot_id
                  where x.lot_id = any (${ids}) and ${seesParticipantSql(caller, sql`l`, sql`x.account_id`)} order by x.id`,
    lotIds,
  );
  return rows.map(participantOfColumns);
}
