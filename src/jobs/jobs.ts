import type { MikroORM } from '@mikro-orm/postgresql';
import PgBoss from 'pg-boss';
import { pruneSeenSignatures } from '../auth/replay';
import type { Cleaner, Job, Recurring } from '../app-modules';
import type { Config } from '../config';
import { loggable } from '../core/loggable';
import { underAdvisoryLock } from '../db/advisory-lock';
import { reachabilityOf } from '../db/bounded-dialect';
import { isUnreachable } from '../db/faults';
import type { Logger } from '../core/logger';
import { MODULES } from '../modules';
import type { Services } from '../services';
import { LOT_QUEUES, scheduleLotClocks, singletonKeyOf, type LotJobData } from '../modules/lots';
import { LotNotices } from '../modules/trading';
import { QueueDb } from './queue-db';

export interface JobsDeps {
  config: Config;
  orm: MikroORM;
  services: Services;
  log: Logger;
}

export interface Jobs {
  /** Stops taking jobs, waits (up to a limit) for those running, lets go of those still running (failed: the queue runs them again), and closes the queue's connections. */
  stop(): Promise<void>;
  /** Jobs waiting in each queue, scheduled ones included (for /metrics). */
  depths(): Promise<Record<string, number>>;
}

/** pg-boss keeps its tables in a schema of its own in the service's database. */
export const JOBS_SCHEMA = 'pgboss';
const CLEANUP_QUEUE = 'cleanup';

/** Works a queue: each job's handler runs while the queue's connections stay open (`QueueDb.holding`). */
type Work = <T>(name: string, handler: PgBoss.WorkHandler<T>) => Promise<string>;

/** The periodic housekeeping, run in this order every CLEANUP_INTERVAL_SECONDS; one failing does not stop the others. */
export function cleanersOf(jobs: Job[], services: Services): Cleaner[] {
  return [
    ...jobs.filter((j) => j.kind === 'cleaner'),
    { kind: 'cleaner', name: 'seen signatures', run: pruneSeenSignatures },
    scheduleLotClocks(services.lotClock),
  ];
}

/** What the areas give the queue to do (src/modules): their cleaners and their recurring work. */
export function jobsOf(services: Services, config: Config): Job[] {
  return MODULES.flatMap((m) => m.jobs?.(services, config) ?? []);
}

/**
 * Starts the durable job queue (pg-boss, PostgreSQL-backed: jobs survive restarts and each runs
 * on one instance) and works its queues: the per-lot notices, the cleaners, the rates refresh and
 * the completion of transactions relayed to Horizon.
 */
export async function startJobs({ config, orm, services, log }: JobsDeps): Promise<Jobs> {
  const reachability = reachabilityOf(orm);
  // The database out of reach fails every poll of every queue: its reachability logs that once.
  const queueError = (err: Error) => (isUnreachable(err) ? reachability.failed(err) : log.warn({ err: loggable(err) }, 'job queue error'));
  const db = new QueueDb(orm.config.get('clientUrl') as string, 3, queueError, config.DB_ANSWER_TIMEOUT * 1000, JOBS_SCHEMA);
  const boss = new PgBoss({
    db,
    schema: JOBS_SCHEMA,
    // No cron schedules: the recurring work reschedules itself, at intervals of seconds.
    schedule: false,
    // A job whose instance died while running it is failed, and so run again, only by this
    // maintenance once its expiry has passed: by default every 120 s, after 300 s.
    maintenanceIntervalSeconds: Math.ceil(config.JOBS_EXPIRE_SECONDS / 2),
  });
  boss.on('error', queueError);
  const jobs = jobsOf(services, config);
  const recurrings: Recurring[] = [
    { kind: 'recurring', queue: CLEANUP_QUEUE, everySeconds: config.CLEANUP_INTERVAL_SECONDS, firstAfterSeconds: 0, run: cleanupRun(cleanersOf(jobs, services)) },
    ...jobs.filter((j): j is Recurring => j.kind === 'recurring'),
  ];
  // pg-boss makes its tables and queues at start; instances doing so together deadlock in them.
  // Every queue exists before any worker runs or any job is sent: a queue is a partition attached
  // to pg-boss's job table, and an insert that runs while a partition is being attached can be
  // routed with the table's partitions as they were and fail with "no partition found for row".
  await underAdvisoryLock(orm.config.get('clientUrl') as string, 'job queues', async () => {
    await boss.start();
    // A lot's jobs end within the statement timeout, and running one twice sends nothing twice
    // (each notice is claimed first): they expire soon. A queue keeps the options it was created
    // with unless updated.
    const lotQueue = { policy: 'short', retryLimit: 5, retryDelay: 10, retryBackoff: true, expireInSeconds: config.JOBS_EXPIRE_SECONDS } as const;
    for (const name of Object.values(LOT_QUEUES)) {
      await boss.createQueue(name, { name, ...lotQueue });
      await boss.updateQueue(name, { name, ...lotQueue });
    }
    for (const { queue } of recurrings) {
      await boss.createQueue(queue, { name: queue, policy: 'short', retryLimit: 1, retryDelay: 1, expireInSeconds: 900 });
    }
  });
  const work: Work = (name, handler) => boss.work(name, { pollingIntervalSeconds: config.JOBS_POLL_SECONDS }, db.holding(handler));
  const notices = new LotNotices(orm, services.notifications, services.live, services.rules);
  await work<LotJobData>(LOT_QUEUES.finishing, async ([job]) => notices.finishing(job.data));
  await work<LotJobData>(LOT_QUEUES.ended, async ([job]) => {
    const ended = await notices.ended(job.data);
    // Early by this process's clock (the queue reads the database's): once more at the end.
    if (ended === 'early') {
      await boss.insert([{ name: LOT_QUEUES.ended, data: job.data, singletonKey: singletonKeyOf(job.data), startAfter: new Date(job.data.endTime) }]);
    } else if (ended.lapseAt) {
      await boss.insert([{ name: LOT_QUEUES.lapse, data: job.data, singletonKey: singletonKeyOf(job.data), startAfter: ended.lapseAt }]);
    }
  });
  await work<LotJobData>(LOT_QUEUES.lapse, async ([job]) => {
    // Early by this process's clock: once more a second later.
    if ((await services.reserve.lapse({ em: orm.em.fork() }, job.data)) === 'early') {
      await boss.insert([{ name: LOT_QUEUES.lapse, data: job.data, singletonKey: singletonKeyOf(job.data), startAfter: new Date(Date.now() + 1000) }]);
    }
  });
  await work<{ lotId: string }>(LOT_QUEUES.invoice, async ([job]) => notices.unpaidInvoice(job.data.lotId));
  for (const job of recurrings) await recurring(boss, job, work, () => job.run(orm, log));
  services.lotClock.attach(boss);
  return {
    async depths() {
      const queues = await boss.getQueues();
      return Object.fromEntries(await Promise.all(queues.map(async (q) => [q.name, await boss.getQueueSize(q.name)] as const)));
    },
    async stop() {
      const limitMs = config.JOBS_STOP_SECONDS * 1000;
      const deadline = Date.now() + limitMs;
      services.lotClock.detach();
      // pg-boss stops fetching, waits up to the limit for the handlers running, then fails their jobs.
      await boss.stop({ graceful: true, wait: true, timeout: limitMs });
      // What still runs at the limit is let go of: no timer or poll of the queue outlives the stop.
      await db.close(Math.max(0, deadline - Date.now()));
    },
  };
}

/** The cleaners in order; one failing does not stop the others. */
function cleanupRun(cleaners: Cleaner[]): Recurring['run'] {
  return async (orm, log) => {
    for (const cleaner of cleaners) {
      try {
        const changed = await cleaner.run(orm.em.fork());
        if (changed) log.info({ cleaner: cleaner.name, changed }, 'cleaner changed rows');
      } catch (err) {
        log.warn({ err: loggable(err), cleaner: cleaner.name }, 'cleaner failed');
      }
    }
  };
}

/**
 * Work that repeats every `everySeconds` across all instances: each run first schedules the next
 * one, and the queue's `short` policy keeps at most one waiting run (instances starting later
 * add none while one waits). A run that fails is retried by the queue, which also reschedules.
 */
async function recurring(boss: PgBoss, { queue, everySeconds, firstAfterSeconds }: Recurring, work: Work, run: () => Promise<void>): Promise<void> {
  await work(queue, async () => {
    await boss.sendAfter(queue, {}, { singletonKey: queue }, everySeconds);
    await run();
  });
  await boss.sendAfter(queue, {}, { singletonKey: queue }, firstAfterSeconds);
}
