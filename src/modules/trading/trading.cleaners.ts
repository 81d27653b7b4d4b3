import type { EntityManager } from '@mikro-orm/postgresql';
import { changedBy, rowsOf } from '../../db/query';
import { sql } from '../../db/sql';
import type { Cleaner } from '../../app-modules';
import { DepositState, ParticipantState } from './trading.entity';
import type { ParticipantColumns } from './participants.columns';
import { inTransaction } from '../../core/transaction';

const DAY_MS = 86_400_000;
/** How many lots one run of a per-lot cleaner takes on; the rest wait for the next run. */
const LOTS_PER_RUN = 500;

/**
 * Runs `change` for each lot in its own transaction with the lot's row locked for writing first,
 * as every trading change takes the lot before its participants and deposits (so a cleaner never
 * overwrites a concurrent deposit payment or winner choice, and never deadlocks with one).
 */
async function perLockedLot(em: EntityManager, lotIds: string[], change: (tx: EntityManager, lotId: string) => Promise<number>): Promise<number> {
  let changed = 0;
  for (const lotId of lotIds) {
    changed += await inTransaction({ em: em.fork() }, async (tx) => {
      await rowsOf(tx, sql`select id from lots where id = ${lotId} for update`);
      return change(tx, lotId);
    });
  }
  return changed;
}

/** The lots of a cleaner's rows (participants', deposits' through their participant). */
type LotOfRow = Pick<ParticipantColumns, 'lot_id'>;

const lotIdsOf = (rows: LotOfRow[]) => rows.map((r) => String(r.lot_id));

/** Participants still deposit_pending 24 hours after their lot ended are rejected. */
export const rejectUnpaidParticipants: Cleaner = {
  kind: 'cleaner',
  name: 'unpaid participants',
  async run(em) {
    const cutoff = new Date(Date.now() - DAY_MS);
    const lots = await rowsOf<LotOfRow>(
      em,
      sql`select distinct p.lot_id from participants p join lots l on l.id = p.lot_id
        where p.state = ${ParticipantState.DepositPending} and l.end_time <= ${cutoff} limit ${LOTS_PER_RUN}`,
    );
    return perLockedLot(em, lotIdsOf(lots), async (tx, lotId) => {
      return changedBy(
        tx,
        sql`update participants set state = ${ParticipantState.Rejected}, updated_at = now()
          where lot_id = ${lotId} and state = ${ParticipantState.DepositPending}
            and exists (select 1 from lots l where l.id = ${lotId} and l.end_time <= ${cutoff})`,
      );
    });
  },
};

/**
 * Paid deposits of rejected or lost participants go back (state returned): a deposit paid after
 * its participant was rejected or lost (rejecting and losing return the deposits paid by then).
 */
export const returnDeposits: Cleaner = {
  kind: 'cleaner',
  name: 'deposits to return',
  async run(em) {
    const settled = sql.list([ParticipantState.Rejected, ParticipantState.Lost]);
    const lots = await rowsOf<LotOfRow>(
      em,
      sql`select distinct d.lot_id from deposits d join participants p on p.id = d.participant_id
        where d.state = ${DepositState.Paid} and p.state in (${settled}) limit ${LOTS_PER_RUN}`,
    );
    return perLockedLot(em, lotIdsOf(lots), async (tx, lotId) => {
      return changedBy(
        tx,
        sql`update deposits d set state = ${DepositState.Returned}, updated_at = now()
          from participants p
          where p.id = d.participant_id and d.lot_id = ${lotId} and d.state = ${DepositState.Paid} and p.state in (${settled})`,
      );
    });
  },
};
