import { PostgreSqlKnexDialect, type MikroORM } from '@mikro-orm/postgresql';
import { commitInDoubt, isUnreachable } from './faults';
import { Reachability } from './reachability';

/** A connection of the pool as the bound needs it: node-postgres' client, over its socket. */
export interface PooledConnection {
  connection: { stream: { destroy(error?: Error): void } };
}

/** What the pool (knex's client) offers the statements that bypass it (src/db/raw.ts). */
export interface BoundedPool<C> {
  acquireConnection(): Promise<C>;
  releaseConnection(connection: C): Promise<void>;
  /** Settles as `work`, a statement on `connection`, or once the bound passed without its answer, the connection destroyed. */
  answered<T>(connection: C & PooledConnection, work: Promise<T>): Promise<T>;
  /** Marks `connection` so that the pool destroys it when it is given back, never handing it out again. */
  discard(connection: C & PooledConnection): void;
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
 * A connection whose server did not answer in time is destroyed, never pooled again: it may hold
 * a transaction, and a late answer would be read as the next caller's. Destroying its socket fails
 * what waits on it with `error`, which says the database is out of reach (ETIMEDOUT).
 */
function abandon(connection: PooledConnection, ms: number, discarded: WeakSet<object>): void {
  const error = Object.assign(new Error(`the database did not answer within ${ms} ms`), { code: 'ETIMEDOUT' });
  discarded.add(connection);
  // The one private field of node-postgres read here: its socket. Its public `end()` waits, on a
  // connection in pipeline mode with statements on the wire, for their answers before it closes,
  // and a frozen server never sends them; node-postgres has no other way to close a client.
  connection.connection.stream.destroy(error);
}

/**
 * knex's PostgreSQL client (as the ORM extends it) whose statements give up when the database does
 * not answer within `answerMs` (0: they wait). A server that is frozen, not gone, keeps its sockets
 * open and its kernel acknowledges every packet, so neither TCP nor its own `statement_timeout` ends
 * the wait: only the client's clock does. A commit sent on a connection that then fails may have
 * been kept: it answers `outcome_unknown`, as a bid's does.
 */
export function boundedDialect(answerMs: number): typeof PostgreSqlKnexDialect {
  const reachability = new Reachability();
  // Connections never to be handed out again: the pool asks `validateConnection` before it hands
  // one out, and destroys one that fails it.
  const discarded = new WeakSet<object>();
  return class BoundedDialect extends PostgreSqlKnexDialect {
    readonly reachability = reachability;
    open = true;

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

    async answered<T>(connection: PooledConnection, work: Promise<T>): Promise<T> {
      const timer = answerMs > 0 ? setTimeout(() => abandon(connection, answerMs, discarded), answerMs) : undefined;
      try {
        const answer = await work;
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

    discard(connection: PooledConnection): void {
      discarded.add(connection);
    }

    // knex's hook for a dialect's statement (the one every statement of the ORM goes through), not a private field.
    _query(connection: PooledConnection, obj: unknown): Promise<unknown> {
      return this.answered(connection, super._query(connection, obj));
    }

    async query(connection: unknown, obj: string | { sql?: string }): Promise<unknown> {
      try {
        return await super.query(connection, obj);
      } catch (err) {
        const sql = typeof obj === 'string' ? obj : obj.sql;
        // knex ends every top-level transaction (the ORM's, `em.transactional`, every flush) so.
        if (sql === 'COMMIT;' && !NOT_SENT.test(String((err as { message?: unknown }).message))) throw commitInDoubt(err) ?? err;
        throw err;
      }
    }
  };
}
