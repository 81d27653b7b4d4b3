import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type PgBoss from 'pg-boss';
import { completeJobs, failJobsById } from 'pg-boss/src/plans';
import { sessionClient, SessionSlots } from '../db/sessions';

/** How long a close waits for the failures of the handler runs it let go of to be recorded. */
const RECORD_MS = 5_000;

/** pg-boss's texts with values are few and fixed (its plans); past this many, a text is sent unnamed. */
const NAMED_LIMIT = 200;

/**
 * A statement with values as a named one, which each connection plans at its first runs only:
 * sent unnamed, the insert of a new lot's two clock jobs was planned at every lot, 0.25 ms beside
 * its 0.34 ms run (bench/lot-create.mjs). Only those with values: node-postgres sends them by the
 * extended protocol anyway, one statement each, where pg-boss's schema scripts, without, hold several.
 */
function named(names: Map<string, string>, text: string, values: unknown[] | undefined): pg.QueryConfig {
  if (!values?.length) return { text, values };
  let name = names.get(text);
  if (name === undefined && names.size < NAMED_LIMIT) {
    name = `boss_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return name === undefined ? { text, values } : { name, text, values };
}

/** What pg-boss's statements that record a job's outcome answer when they changed no job. */
const NOTHING_RECORDED = { rows: [{ count: '0' }] };

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
  private readonly outcomes: ReadonlySet<string>;
  private readonly names = new Map<string, string>();
  private queries = 0;
  private handlers = 0;
  /** How to end each handler run still going, failed (`abandon`); null once the queue has let go. */
  private running: Set<(reason: Error) => void> | null = new Set();

  /**
   * `answerMs` bounds the wait for a connection and for each statement's answer (0: none): a
   * connection whose statement got none is ended by the pool (pg-pool ends a client released
   * with an error), and a job inserted by a request's after-commit task cannot hang it. Its
   * statement is cancelled and its session counted against `max` until the server ended it
   * (src/db/sessions.ts).
   *
   * `schema` is pg-boss's: once its worker's job handler ends, pg-boss records the job's outcome
   * (completed or failed) without waiting for the statement or catching its failure, so with the
   * database out of reach that rejection would be unhandled and end the process. Those statements
   * never fail here: their failure goes to `onError`, and they answer as having changed no job,
   * which is true; the job stays active until its expiry fails it and the queue runs it again,
   * as after a crash.
   */
  constructor(
    connectionString: string,
    max: number,
    private readonly onError: (err: Error) => void,
    answerMs = 0,
    schema?: string,
  ) {
    const Client = sessionClient(pg.Client, new SessionSlots(max));
    this.pool = new pg.Pool({ Client, connectionString, max, application_name: 'auction-jobs', keepAlive: true, connectionTimeoutMillis: answerMs, query_timeout: answerMs || undefined });
    // An idle connection that the server drops must not crash the process.
    this.pool.on('error', onError);
    this.outcomes = new Set(schema ? [completeJobs(schema), failJobsById(schema)] : []);
  }

  executeSql(text: string, values?: unknown[]): Promise<Pick<pg.QueryResult, 'rows'>> {
    this.queries++;
    const settled = () => {
      this.queries--;
    };
    const result = this.pool.query(named(this.names, text, values));
    result.then(settled, settled);
    if (!this.outcomes.has(text)) return result;
    return result.catch((err: Error) => {
      this.onError(err);
      return NOTHING_RECORDED;
    });
  }

  /**
   * A job handler whose runs keep the connections open: pg-boss records a job's outcome through
   * them in the same tick as its handler ends, so a close that sees neither a query nor a handler
   * running has nothing left to wait for. A run the queue lets go of (`abandon`) ends at once,
   * failed, and so does one that begins after (its jobs fetched as the queue stopped).
   */
  holding<T>(handler: PgBoss.WorkHandler<T>): PgBoss.WorkHandler<T> {
    return async (jobs) => {
      const running = this.running;
      if (!running) throw stoppedError();
      this.handlers++;
      let letGo!: (reason: Error) => void;
      const abandoned = new Promise<never>((_resolve, reject) => (letGo = reject));
      running.add(letGo);
      try {
        return await Promise.race([handler(jobs), abandoned]);
      } finally {
        running.delete(letGo);
        this.handlers--;
      }
    };
  }

  /**
   * Ends every handler run still going, as failed, without waiting for it, and refuses those that
   * begin after (their jobs fetched as the queue stopped): each fails. pg-boss keeps a timer
   * per run, as long as its job's expiry (up to 15 minutes), and its worker and its stop poll
   * until the run ends: a run that outlives the stop's limit would keep the process alive that
   * long. Its job, failed, is run again by the queue, as after a crash; what the handler still
   * does fails with the connections it uses.
   */
  private abandon(): void {
    const running = this.running;
    this.running = null;
    for (const letGo of running ?? []) letGo(stoppedError());
  }

  /**
   * Ends the connections once no query and no handler runs, or once `timeoutMs` has passed: then
   * the handler runs still going are let go of (`abandon`), and their jobs' failures recorded
   * (within RECORD_MS) before the connections end.
   */
  async close(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while ((this.queries > 0 || this.handlers > 0) && Date.now() < deadline) await sleep(10);
    this.abandon();
    // pg-boss sends a failure some promise reactions after its run is let go of: after the next turn.
    const recorded = Date.now() + RECORD_MS;
    do await sleep(10);
    while (this.queries > 0 && Date.now() < recorded);
    await this.pool.end();
  }
}

function stoppedError(): Error {
  return new Error('the job queue stopped before this job ended');
}
