import type PgBoss from 'pg-boss';
import { LotType } from './lots.entity';

/** The queues of the per-lot jobs (src/jobs/jobs.ts creates and works them). */
export const LOT_QUEUES = {
  /** FINISHING_NOTICE_SECONDS before the end: notifications 1, 2, 3 and 24. */
  finishing: 'lot-finishing',
  /** At the end of an eng lot: notification 26 and a lot change. */
  ended: 'lot-ended',
  /** UNPAID_INVOICE_REMINDER_SECONDS after a lot is closed sold: notification 25. */
  invoice: 'lot-unpaid-invoice',
  /** reserve_lapse_after past the end of a lot whose reserve was not met: it lapses unless a winner was chosen. */
  lapse: 'lot-reserve-lapse',
} as const;

/** What the clock needs to know of a lot. */
export interface LotTimes {
  id: string;
  lotType: LotType;
  endTime: Date;
}

/** The data of a finishing or ended job: the lot and the end the job was scheduled for. */
export interface LotJobData {
  lotId: string;
  endTime: string;
}

/** Jobs of one lot and end share a singleton key: one of each waits at a time. */
export const singletonKeyOf = (data: LotJobData): string => `${data.lotId}@${Date.parse(data.endTime)}`;

export interface LotClockOffsets {
  finishingNoticeSeconds: number;
  unpaidInvoiceReminderSeconds: number;
}

/**
 * The jobs of a lot's times. The singleton key names the end time, so that a lot whose end
 * moves gets jobs of its own for the new end, and sending the same lot twice while its job
 * waits adds nothing (the queues use pg-boss's `short` policy). Only eng and no_auction lots
 * have them: external-source lots take no participation and their feeds own their times.
 */
export function clockJobsOf(lot: LotTimes, finishingNoticeSeconds: number, now = Date.now()): PgBoss.JobInsert<LotJobData>[] {
  if (lot.lotType !== LotType.Eng && lot.lotType !== LotType.NoAuction) return [];
  const end = lot.endTime.getTime();
  const data: LotJobData = { lotId: lot.id, endTime: lot.endTime.toISOString() };
  const singletonKey = singletonKeyOf(data);
  const jobs: PgBoss.JobInsert<LotJobData>[] = [];
  if (end > now) jobs.push({ name: LOT_QUEUES.finishing, data, singletonKey, startAfter: new Date(end - finishingNoticeSeconds * 1000) });
  if (lot.lotType === LotType.Eng) jobs.push({ name: LOT_QUEUES.ended, data, singletonKey, startAfter: lot.endTime });
  return jobs;
}

/**
 * The seam between the domain services and the job queue. Services call it after their
 * transaction commits: a lot's times were set, a lot was closed sold. Until a queue is attached
 * (with `JOBS=off`, or before the queue started) the calls do nothing; the lot-clock cleaner
 * (`lots.clock.cleaner.ts`) schedules what was missed once a queue runs.
 */
export class LotClock {
  private boss: PgBoss | null = null;

  constructor(readonly offsets: LotClockOffsets) {}

  attach(boss: PgBoss): void {
    this.boss = boss;
  }

  detach(): void {
    this.boss = null;
  }

  /** Schedules the notices of lots whose times were set (created, or moved). */
  async lotTimesSet(lots: readonly LotTimes[]): Promise<void> {
    const jobs = lots.flatMap((lot) => clockJobsOf(lot, this.offsets.finishingNoticeSeconds));
    if (this.boss && jobs.length) await this.boss.insert(jobs);
  }

  /** Schedules the unpaid-invoice reminder of a lot that was just closed sold. */
  async lotClosedSold(lotId: string): Promise<void> {
    if (!this.boss) return;
    const startAfter = new Date(Date.now() + this.offsets.unpaidInvoiceReminderSeconds * 1000);
    await this.boss.insert([{ name: LOT_QUEUES.invoice, data: { lotId }, singletonKey: lotId, startAfter }]);
  }
}
