import type { EntityManager } from '@mikro-orm/postgresql';
import { LotState, LotType } from '../modules/lots/lots.entity';
import { DepositState, ParticipantState } from '../modules/trading/trading.entity';
import type { LotClock } from './lot-clock';

/** One piece of periodic housekeeping; may answer how many rows it changed (for the log). */
export interface Cleaner {
  name: string;
  run(em: EntityManager): Promise<number | void>;
}

const DAY_MS = 86_400_000;
/** How many lots one run of a per-lot cleaner takes on; the rest wait for the next run. */
const LOTS_PER_RUN = 500;
const CLOCK_BATCH = 1000;

async function execute<T>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  return em.getConnection().execute<T[]>(sql, params, 'all', em.getTransactionContext());
}

/**
 * Runs `change` for each lot in its own transaction with the lot's row locked for writing first,
 * as every trading change takes the lot before its participants and deposits (so a cleaner never
 * overwrites a concurrent deposit payment or winner choice, and never deadlocks with one).
 */
async function perLockedLot(em: EntityManager, lotIds: string[], change: (tx: EntityManager, lotId: string) => Promise<number>): Promise<number> {
  let changed = 0;
  for (const lotId of lotIds) {
    changed += await em.fork().transactional(async (tx) => {
      await execute(tx, 'select id from lots where id = ? for update', [lotId]);
      return change(tx, lotId);
    });
  }
  return changed;
}

const lotIdsOf = (rows: { lot_id: string }[]) => rows.map((r) => String(r.lot_id));

/** Participants still deposit_pending 24 hours after their lot ended are rejected (PROTOCOL.md §6). */
export const rejectUnpaidParticipants: Cleaner = {
  name: 'unpaid participants',
  async run(em) {
    const cutoff = new Date(Date.now() - DAY_MS);
    const lots = await execute<{ lot_id: string }>(
      em,
      `select distinct p.lot_id from participants p join lots l on l.id = p.lot_id
        where p.state = ${ParticipantState.DepositPending} and l.end_time <= ? limit ${LOTS_PER_RUN}`,
      [cutoff],
    );
    return perLockedLot(em, lotIdsOf(lots), async (tx, lotId) => {
      const rows = await execute(
        tx,
        `update participants set state = ${ParticipantState.Rejected}, updated_at = now()
          where lot_id = ? and state = ${ParticipantState.DepositPending}
            and exists (select 1 from lots l where l.id = ? and l.end_time <= ?)
          returning id`,
        [lotId, lotId, cutoff],
      );
      return rows.length;
    });
  },
};

/**
 * Paid deposits of rejected or lost participants go back (state returned): a deposit paid after
 * its participant was rejected or lost (rejecting and losing return the deposits paid by then).
 */
export const returnDeposits: Cleaner = {
  name: 'deposits to return',
  async run(em) {
    const settled = `${ParticipantState.Rejected}, ${ParticipantState.Lost}`;
    const lots = await execute<{ lot_id: string }>(
      em,
      `select distinct d.lot_id from deposits d join participants p on p.id = d.participant_id
        where d.state = ${DepositState.Paid} and p.state in (${settled}) limit ${LOTS_PER_RUN}`,
      [],
    );
    return perLockedLot(em, lotIdsOf(lots), async (tx, lotId) => {
      const rows = await execute(
        tx,
        `update deposits d set state = ${DepositState.Returned}, updated_at = now()
          from participants p
          where p.id = d.participant_id and d.lot_id = ? and d.state = ${DepositState.Paid} and p.state in (${settled})
          returning d.id`,
        [lotId],
      );
      return rows.length;
    });
  },
};

/** Verification and recovery tokens are valid for 24 hours (PROTOCOL.md §8); expired ones go. */
export const deleteExpiredTokens: Cleaner = {
  name: 'expired tokens',
  async run(em) {
    const now = new Date();
    const verification = await execute(em, 'delete from verification_tokens where expires_at <= ? returning id', [now]);
    const recovery = await execute(em, 'delete from recovery_requests where expires_at <= ? returning account_id', [now]);
    return verification.length + recovery.length;
  },
};

/**
 * Schedules the jobs of pending lots whose notices are still ahead (idempotent: a waiting job of
 * the same lot and end is kept). It catches lots created while no queue ran (`JOBS=off`, or a
 * stop between a commit and its scheduling).
 */
export function scheduleLotClocks(clock: LotClock): Cleaner {
  return {
    name: 'lot clocks',
    async run(em) {
      let after = '0';
      let scheduled = 0;
      for (;;) {
        const rows = await execute<{ id: string; lot_type: LotType; end_time: Date }>(
          em,
          `select id, lot_type, end_time from lots
            where lot_state = ${LotState.Pending} and lot_type in (${LotType.Eng}, ${LotType.NoAuction})
              and end_time - make_interval(secs => ?) > ? and id > ?
            order by id limit ${CLOCK_BATCH}`,
          [clock.offsets.finishingNoticeSeconds, new Date(), after],
        );
        if (!rows.length) return scheduled;
        await clock.lotTimesSet(rows.map((r) => ({ id: String(r.id), lotType: r.lot_type, endTime: new Date(r.end_time) })));
        scheduled += rows.length;
        after = String(rows[rows.length - 1].id);
      }
    },
  };
}
