import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Logger } from '../core/logger';

/** One piece of periodic housekeeping, run with the others every CLEANUP_INTERVAL_SECONDS; may answer how many rows it changed (for the log). */
export interface Cleaner {
  kind: 'cleaner';
  name: string;
  run(em: EntityManager): Promise<number | void>;
}

/** Work of its own queue that repeats every `everySeconds` on one instance of all. */
export interface Recurring {
  kind: 'recurring';
  queue: string;
  everySeconds: number;
  firstAfterSeconds: number;
  run(orm: MikroORM, log: Logger): Promise<void>;
}

export type Job = Cleaner | Recurring;
