import type { Socket } from 'node:net';
import { PostgreSqlKnexDialect, type MikroORM } from '@mikro-orm/postgresql';
import { commitInDoubt, isUnreachable } from './faults';
import { Reachability } from './reachability';
import { sessionClient, SessionSlots, type Session } from './sessions';

/** What the pool (knex's client) offers the statements that bypass it (src/db/raw.ts). */
export interface BoundedPool<C> {
  acquireConnection(): Promise<C>;
  releaseConnection(connection: C): Promise<void>;
  /**
   * Settles as `send()`, a statement on `connection`, or once the bound passed without its answer,
   * the connection ended. A connection given up on is sent nothing more. `commits`: whether
   * `send()` sends a COMMIT.
   */
  answered<T>(connection: C, send: () => Promise<T>, commits?: boolean): Promise<T>;
  /** Marks `connection` so that the pool destroys it when it is given back, never handing it out again. */
  discard(connection: C): void;
  /** The socket `connection` reads and writes: ours, given to node-postgres through its `stream` option (src/db/sessions.ts). */
  socketOf(connection: C): Socket;
  readonly reachability: Reachability;
  /** False once the ORM closed the pool. */
  readonly open: boolean;
}

/** knex's client of `orm`, this dialect (knex's public `client`). */
const poolOf = (orm: MikroORM) => orm.em.getConnection().getKnex().client as BoundedPool<unknown>;

/** The reachability of the database behind `orm`'s pool, which other paths to it (the job queue's) tell of their failures too. */
export const reachabilityOf = (orm: MikroORM): Reachability => poolOf(orm).reachability;

/** Whether `orm`'s pool is open: a closed one serves no request however well the database answers. */
export const poolOpen = (orm: MikroORM): boolean => poolOf(orm).open;

/** node-postgres' answer to a statement on a connection that had died before: the statement was never sent. */
const NOT_SENT = /is not queryable/;

/**
 * A connection whose server did not answer in time is never pooled again: it may hold a
 * transaction, and a late answer would be read as the next caller's. It is let go of at once (its
 * session ended once the server answers: src/db/sessions.ts), and what waits on it fails with the
 * answered error, which says the database is out of reach (ETIMEDOUT). Its statement is cancelled,
 * unless it commits: a commit is let run, and may land, as `outcome_unknown` says.
 */
function abandon(connection: object, ms: number, discarded: WeakSet<object>, commits: boolean): Error {
  discarded.add(connection);
  (connection as Session).giveUp(!commits);
  return Object.assign(new Error(`the database did not answer within ${ms} ms`), { code: 'ETIMEDOUT' });
}

/**
 * knex's PostgreSQL client (as the ORM extends it) whose statements give up when the database does
 * not answer within `answerMs` (0: they wait). A server that is frozen, not gone, keeps its sockets
 * open and its kernel acknowledges every packet, so neither TCP nor its own `statement_timeout` ends
 * the wait: only the client's clock does. A commit sent on a connection that then fails may have
 * been kept: it answers `outcome_unknown`, as a bid's does.
 */
export function boundedDialect(answerMs: number, poolSize: number): typeof PostgreSqlKnexDialect {
  const reachability = new Reachability();
  // Connections never to be handed out again: the pool asks `validateConnection` before it hands
  // one out, and destroys one that fails it.
  const discarded = new WeakSet<object>();
  // The pool opens a connection whenever it holds fewer than its size: a session it let go of that
  // the server still runs is counted here until it ends.
  const slots = new SessionSlots(poolSize);
  return class BoundedDialect extends PostgreSqlKnexDialect {
    readonly reachability = reachability;
    open = true;

    // knex's hook that loads the driver (node-postgres), whose `Client` every connection of the pool is made with.
    initializeDriver(): void {
      super.initializeDriver();
      this.driver = Object.create(this.driver, { Client: { value: sessionClient(this.driver.Client, slots) } });
    }

    validateConnection(connection: object): boolean {
      return !discarded.has(connection) && super.validateConnection(connection);
    }

    async destroy(callback?: (error?: unknown) => void): Promise<void> {
      await super.destroy(callback);
      this.open = false;
    }

    async acquireConnection(): Promise<unknown> {
      try {
        return await super.acquireConnection();
      } catch (err) {
        reachability.failed(err);
        throw err;
      }
    }

    async answered<T>(connection: object, send: () => Promise<T>, commits = false): Promise<T> {
      if (discarded.has(connection)) throw new Error('the connection was given up on and is not queryable');
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        if (answerMs > 0) timer = setTimeout(() => reject(abandon(connection, answerMs, discarded, commits)), answerMs);
      });
      try {
        const answer = await Promise.race([send(), late]);
        reachability.answered();
        return answer;
      } catch (err) {
        reachability.failed(err);
        // The server's FATAL arrives before its socket closes, and a loaded server may take a while
        // to close it: until then node-postgres thinks the connection usable, and knex would hand
        // it to the next request, which would fail for nothing.
        if (isUnreachable(err) || (err as { severity?: unknown }).severity === 'FATAL') discarded.add(connection);
        throw err;
      } finally {
        clearTimeout(timer);
      }
    }

    discard(connection: object): void {
      discarded.add(connection);
    }

    socketOf(connection: object): Socket {
      return (connection as Session).socket;
    }

    // Every statement of the ORM and of knex's transactions goes through knex's `query`.
    async query(connection: object, obj: string | { sql?: string }): Promise<unknown> {
      const sql = typeof obj === 'string' ? obj : obj.sql;
      // knex ends every top-level transaction (the ORM's, `em.transactional`, every flush) so.
      const commits = sql === 'COMMIT;';
      try {
        return await this.answered(connection, () => super.query(connection, obj), commits);
      } catch (err) {
        if (commits && !NOT_SENT.test(String((err as { message?: unknown }).message))) throw commitInDoubt(err) ?? err;
        throw err;
      }
    }
  };
}
