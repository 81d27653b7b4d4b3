import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type PgBoss from 'pg-boss';

/**
 * The job queue's connections, held here rather than by pg-boss. When pg-boss stops, it ends its
 * own pool at once. pg-pool then never answers a query that is still waiting for a connection.
 * The worker that sent that query never stops, and pg-boss checks it again every second, for as
 * long as the process lives. This pool is ended only once no query waits.
 */
export class QueueDb implements PgBoss.Db {
  private readonly pool: pg.Pool;

  constructor(connectionString: string, max: number, onError: (err: Error) => void) {
    this.pool = new pg.Pool({ connectionString, max, application_name: 'auction-jobs' });
    // An idle connection that the server drops must not crash the process.
    this.pool.on('error', onError);
  }

  executeSql(text: string, values?: unknown[]): Promise<pg.QueryResult> {
    return this.pool.query(text, values);
  }

  /** Ends the connections once no query waits for one; pg-pool lets the running ones finish. */
  async close(): Promise<void> {
    while (this.pool.waitingCount > 0) await sleep(10);
    await this.pool.end();
  }
}
