import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from './context';
import { loggable } from './loggable';
import { logger } from './logger';

/** What a transaction may leave for after its commit: events that must never announce a rollback. */
export interface TransactionScope {
  afterCommit(task: () => void | Promise<void>): void;
}

/**
 * Runs `work` in one transaction; the tasks it registers run only once the commit succeeded
 * (notifications and subscription events are published then, never for a rolled-back change).
 */
export async function inTransaction<T>(ctx: Pick<RequestContext, 'em'>, work: (em: EntityManager, scope: TransactionScope) => Promise<T>): Promise<T> {
  const tasks: (() => void | Promise<void>)[] = [];
  const result = await ctx.em.transactional((em) => work(em, { afterCommit: (task) => tasks.push(task) }));
  for (const task of tasks) {
    try {
      await task();
    } catch (err) {
      logger.warn({ err: loggable(err) }, 'an after-commit task failed');
    }
  }
  return result;
}
