import { LockMode } from '@mikro-orm/core';
import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { inTransaction, type TransactionScope } from '../../core/transaction';
import { rowsOf } from '../../db/query';
import { sql, type Sql } from '../../db/sql';
import { Lot, LotState, LotType, isClosed, reserveMet, type LotJobData } from '../lots';
import { NotificationType, staffOf, type NotificationsService } from '../notifications';
import type { LivePublisher } from '../../live/live.port';
import type { RulesService } from '../rules';
import { lapseTimeOf, reserveRecipients } from './reserve.service';
import { ParticipantState, type WinnerDetailsColumns } from './trading.entity';

/** What the end job did: 'early' when it came before the end; else when the lot lapses if nobody acts (null: never). */
export type Ended = 'early' | { lapseAt: Date | null };

/** What a firing is about, besides its recipients: the lot, the type and (type 24) the participant. */
interface FiringKey {
  lotId: string;
  type: NotificationType;
  subject?: string;
}

/** A recipient `claim` recorded a firing for (`notification_firings`). */
interface Claimed {
  recipient: string;
}

/**
 * Claims the recipients of a firing in `notification_firings` and returns those not claimed
 * before. A second run of the same job (a retry, a copy on another instance) waits for the first
 * one's transaction on the primary key and then finds nothing left to claim.
 */
async function claim(em: EntityManager, key: FiringKey, recipients: readonly string[]): Promise<string[]> {
  if (!recipients.length) return [];
  const rows = await rowsOf<Claimed>(
    em,
    sql`insert into notification_firings (lot_id, type, subject, recipient)
     select ${key.lotId}, ${key.type}, ${key.subject ?? ''}, r from jsonb_array_elements_text(${JSON.stringify([...new Set(recipients)])}::jsonb) as r
     on conflict do nothing
     returning recipient`,
  );
  return rows.map((r) => r.recipient);
}

/** An account a statement of participants or stars selects, as `account_id`. */
interface AccountOf {
  account_id: string;
}

async function accountIds(em: EntityManager, query: Sql): Promise<string[]> {
  const rows = await rowsOf<AccountOf>(em, query);
  return rows.map((r) => r.account_id);
}

/**
 * The time-based notifications, as the jobs of the lot clock (lots' `lots.clock.ts`) fire
 * them. Each run re-reads the lot under a share lock (participations, winner choices and closes
 * lock it for writing, so the recipients are read from a settled lot) and does nothing when the
 * lot was closed or its end moved since the job was scheduled (the move scheduled jobs of its
 * own). Every notification is claimed per lot, type and recipient first, so it is sent once.
 */
export class LotNotices {
  constructor(
    private readonly orm: MikroORM,
    private readonly notifications: NotificationsService,
    private readonly live: LivePublisher,
    private readonly rules: Pick<RulesService, 'ofLot'>,
  ) {}

  /** FINISHING_NOTICE_SECONDS before the end: types 1, 3 and 24 (eng), 2 (no_auction). */
  async finishing(job: LotJobData, now = new Date()): Promise<void> {
    if (now.getTime() >= Date.parse(job.endTime)) return; // too late to say it finishes soon
    await inTransaction({ em: this.orm.em.fork() }, async (em, scope) => {
      const lot = await this.pendingLot(em, job);
      if (!lot) return;
      if (lot.lotType === LotType.NoAuction) {
        const watchers = await accountIds(em, sql`select account_id from stars where lot_id = ${lot.id}`);
        await this.fire(em, scope, { lotId: lot.id, type: NotificationType.WatchlistDirectSaleFinishingIn3h }, watchers, {});
        return;
      }
      const open = [ParticipantState.Pending, ParticipantState.DepositPending];
      const participants = await accountIds(em, sql`select account_id from participants where lot_id = ${lot.id} and state in (${sql.list(open)}) order by id`);
      await this.fire(em, scope, { lotId: lot.id, type: NotificationType.RegisteredFinishingIn3h }, participants, {});
      const watchers = await accountIds(em, sql`select s.account_id from stars s where s.lot_id = ${lot.id} and not exists (select 1 from participants p where p.lot_id = s.lot_id and p.account_id = s.account_id)`);
      await this.fire(em, scope, { lotId: lot.id, type: NotificationType.WatchlistAuctionFinishingIn3h }, watchers, {});
      const unpaid = await accountIds(em, sql`select account_id from participants where lot_id = ${lot.id} and state = ${ParticipantState.DepositPending} order by id`);
      if (!unpaid.length) return;
      const staff = await staffOf(em, lot.publisherId);
      for (const accountId of unpaid) {
        await this.fire(em, scope, { lotId: lot.id, type: NotificationType.ReminderUnpaidDeposit3h, subject: accountId }, staff, { lot_id: lot.id, account_id: accountId });
      }
    });
  }

  /**
   * At the end of an eng lot that is still pending: type 26 to the publisher's staff, and a lot
   * change (bidding stopped) once committed; with a reserve not met and no winner, type 32 to the
   * organizer and the highest bidder, and the time the lot lapses (for the caller to schedule,
   * on every run, so that a retry schedules it too). Answers 'early' when the job came before the
   * end by this process's clock, so that the caller schedules it again.
   */
  async ended(job: LotJobData, now = new Date()): Promise<Ended> {
    if (now.getTime() < Date.parse(job.endTime)) return 'early';
    return inTransaction({ em: this.orm.em.fork() }, async (em, scope) => {
      const lot = await this.pendingLot(em, job);
      if (lot?.lotType !== LotType.Eng) return { lapseAt: null };
      const unmet = lot.winnerId === null && reserveMet(lot) === false;
      if (unmet) await this.fire(em, scope, { lotId: lot.id, type: NotificationType.ReserveNotMet }, await reserveRecipients(em, lot), { lot_id: lot.id });
      const lapseAt = unmet ? await lapseTimeOf(this.rules, em, lot) : null;
      const key = { lotId: lot.id, type: NotificationType.AuctionFinished };
      // The lot's own claim (no recipient) makes the lot change announced once, whoever its staff are.
      const [own] = await claim(em, { ...key, subject: 'lot' }, ['']);
      if (own === undefined) return { lapseAt };
      await this.fire(em, scope, key, await staffOf(em, lot.publisherId), { lot_id: lot.id });
      scope.afterCommit(() => this.live.publishLotChanged(lot.id));
      return { lapseAt };
    });
  }

  /** UNPAID_INVOICE_REMINDER_SECONDS after a lot was closed sold: type 25 unless the invoice is paid. */
  async unpaidInvoice(lotId: string): Promise<void> {
    await inTransaction({ em: this.orm.em.fork() }, async (em, scope) => {
      const lot = await em.findOne(Lot, { id: lotId }, { lockMode: LockMode.PESSIMISTIC_READ, refresh: true });
      if (lot?.lotState !== LotState.Sold) return;
      const [details] = await rowsOf<Pick<WinnerDetailsColumns, 'invoice_paid'>>(em, sql`select invoice_paid from winner_details where lot_id = ${lot.id}`);
      if (details?.invoice_paid === true) return;
      await this.fire(em, scope, { lotId: lot.id, type: NotificationType.ReminderUnpaidInvoice }, await staffOf(em, lot.publisherId), { lot_id: lot.id });
    });
  }

  /** The lot of a job, share-locked, when it is still pending and still ends when the job was scheduled for. */
  private async pendingLot(em: EntityManager, job: LotJobData): Promise<Lot | null> {
    const lot = await em.findOne(Lot, { id: job.lotId }, { lockMode: LockMode.PESSIMISTIC_READ, refresh: true });
    if (!lot || isClosed(lot) || lot.endTime.getTime() !== Date.parse(job.endTime)) return null;
    return lot;
  }

  private async fire(em: EntityManager, scope: TransactionScope, key: FiringKey, recipients: readonly string[], meta: Record<string, string>): Promise<void> {
    const fresh = await claim(em, key, recipients);
    await this.notifications.emit(em, scope, key.type, fresh, meta);
  }
}
