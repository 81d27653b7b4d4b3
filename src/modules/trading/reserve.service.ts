import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { inTransaction } from '../../core/transaction';
import { rowsOf } from '../../db/query';
import { sql } from '../../db/sql';
import type { LotJobData } from '../lots';
import type { LivePublisher } from '../../live/live.port';
import type { BidLogService } from '../bidlog';
import { Lot, LotState, isClosed, reserveMet } from '../lots';
import { NotificationType, type NotificationsService } from '../notifications';
import type { RulesService } from '../rules';
import { settleLosers } from './trading.rules';
import type { ParticipantColumns } from './participants.columns';

/** The account holding a lot's highest bid, if any bid was accepted. */
export async function highestBidder(em: EntityManager, lot: Pick<Lot, 'id' | 'highestBid'>): Promise<string | null> {
  if (lot.highestBid === null) return null;
  const [row] = await rowsOf<Pick<ParticipantColumns, 'account_id'>>(em, sql`select account_id from participants where lot_id = ${lot.id} and current_bid = ${lot.highestBid.toFixed(2)} order by id limit 1`);
  return row?.account_id ?? null;
}

/** Whom the reserve notices (types 32, 33) go to: the organizer and the highest bidder. */
export async function reserveRecipients(em: EntityManager, lot: Lot): Promise<string[]> {
  const bidder = await highestBidder(em, lot);
  return bidder ? [lot.organizerId, bidder] : [lot.organizerId];
}

/** When an ended lot whose reserve was not met lapses under its rules; null when it never does (or the lot has a winner, or met its reserve). */
export async function lapseTimeOf(rules: Pick<RulesService, 'ofLot'>, em: EntityManager, lot: Lot): Promise<Date | null> {
  if (lot.winnerId !== null || reserveMet(lot) !== false) return null;
  const after = (await rules.ofLot(em, lot))?.reserveLapseAfter ?? null;
  return after === null ? null : new Date(lot.endTime.getTime() + after * 1000);
}

/**
 * Lapsing (docs/auction-rules.md): a lot whose reserve was not met, still pending and without a
 * winner when its platform's `reserve_lapse_after` has passed since its end, finishes as a close
 * "finished" would (open participants lose, paid deposits go back, the bid log is sealed), and
 * records when. It locks the lot's row for writing, as choosing a winner does, so of the two
 * exactly one happens.
 */
export class ReserveService {
  constructor(
    private readonly notifications: NotificationsService,
    private readonly bidLog: Pick<BidLogService, 'seal'>,
    private readonly live: LivePublisher,
    private readonly rules: Pick<RulesService, 'ofLot'>,
  ) {}

  /**
   * Lapses the lot of a lapse job. Answers 'early' when the lapse time has not come by this
   * process's clock (the caller schedules the job again), 'lapsed', or 'kept' when the lot ended
   * otherwise: a winner was chosen, it was closed, or its end moved (the new end has jobs of its own).
   */
  async lapse(ctx: { em: EntityManager }, job: LotJobData, now = new Date()): Promise<'early' | 'lapsed' | 'kept'> {
    return inTransaction(ctx, async (em, scope) => {
      const lot = await em.findOne(Lot, { id: job.lotId }, { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true });
      if (!lot || isClosed(lot) || lot.lapsedAt !== null || lot.endTime.getTime() !== Date.parse(job.endTime)) return 'kept';
      const at = await lapseTimeOf(this.rules, em, lot);
      if (at === null) return 'kept';
      if (now < at) return 'early';
      lot.lotState = LotState.Finished;
      lot.lapsedAt = now;
      await settleLosers(em, lot.id, null);
      await em.flush();
      await this.bidLog.seal(em, lot);
      await this.notifications.emit(em, scope, NotificationType.LotLapsed, await reserveRecipients(em, lot), { lot_id: lot.id });
      scope.afterCommit(() => this.live.publishLotChanged(lot.id));
      return 'lapsed';
    });
  }
}
