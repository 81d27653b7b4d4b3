import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type PgBoss from 'pg-boss';

/**
 * The job queue's connections, held here rather than by pg-boss, and ended only once nothing will
 * ask for one again. When pg-boss stops, it ends its own pool at once, while it still has work that
 * needs it: a query waiting for a connection (pg-pool never answers it then, and the worker that
 * sent it is checked every second for as long as the process lives), a fetch whose jobs are then
 * run anyway, and the outcome of a job it records without waiting once the job's handler ends
 * (a rejection no one handles, once the pool has ended).
 */
export class QueueDb implements PgBoss.Db {
  private readonly pool: pg.Pool;
  private queries = 0;
  private handlers = 0;

  constructor(connectionString: string, max: number, onError: (err: Error) => void) {
    this.pool = new pg.Pool({ connectionString, max, application_name: 'auction-jobs' });
    // An idle connection that the server drops must not crash the process.
    this.pool.on('error', onError);
  }

  executeSql(text: string, values?: unknown[]): Promise<pg.QueryResult> {
    this.queries++;
    const settled = () => {
      this.queries--;
    };
    const result = this.pool.query(text, values);
    result.then(settled, settled);
    return result;
  }

  /**
   * A job handler whose runs keep the connections open: pg-boss records a job's outcome through
   * them in the same tick as its handler ends, so a close that sees neither a query nor a handler
   * running has nothing left to wait for.
   */
  holding<T>(handler: PgBoss.WorkHandler<T>): PgBoss.WorkHandler<T> {
    return async (jobs) => {
      this.handlers++;
      try {
        return await handler(jobs);
      } finally {
        this.handlers--;
      }
    };
  }

  /** Ends the connections once no query and no handler runs, or once `timeoutMs` has passed. */
  async close(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((this.queries > 0 || this.handlers > 0) && Date.now() < deadline) await sleep(10);
    await this.pool.end();
  }
}
