import type { EntityManager } from '@mikro-orm/postgresql';

/** Rows of one statement, as the driver answers them. */
export type Rows = Record<string, unknown>[];

/** SQL with `?` placeholders and their values. */
export interface Statement {
  text: string;
  params?: readonly unknown[];
}

/** What the hot paths may do inside `rawTransaction`, besides reading what the opening answered. */
export interface RawTransaction {
  /** Sends `statements` and the commit in one round trip; answers the rows of each statement. */
  commitWith(statements: Statement[]): Promise<Rows[]>;
}

interface Connection {
  query(text: string): Promise<{ rows: Rows; rowCount: number | null } | { rows: Rows; rowCount: number | null }[]>;
  end(): Promise<void>;
  /** The ORM's pool (knex) checks this before handing a connection out, and destroys it when set. */
  __knex__disposed?: unknown;
}

interface Pool {
  acquireConnection(): Promise<Connection>;
  releaseConnection(connection: Connection): Promise<void>;
}

/** The ORM's pool hands timestamps over as PostgreSQL's text, which Date parses. */
export const timestamp = (v: unknown): Date | null => (v === null ? null : new Date(v as string | Date));

/**
 * Sends statements as one simple query on a connection of the ORM's own pool, their values
 * written in by the ORM's own escaping, as every ORM query is sent: one round trip for several
 * statements, which the extended protocol cannot carry.
 */
async function send(em: EntityManager, connection: Connection, statements: Statement[]): Promise<{ rows: Rows; rowCount: number | null }[]> {
  const platform = em.getPlatform();
  const text = statements.map((s) => (s.params?.length ? platform.formatQuery(s.text, [...s.params]) : s.text)).join(';\n');
  const result = await connection.query(text);
  return Array.isArray(result) ? result : [result];
}

const poolOf = (em: EntityManager) => em.getConnection().getKnex().client as unknown as Pool;

/**
 * Rolls back what a failure left open. When the rollback fails too, the session may still hold
 * its transaction and locks, or be dead without the driver having noticed yet: it is closed
 * (the server rolls back a closed session) and marked so that the pool destroys it rather than
 * hand it to the next caller.
 */
async function rollback(em: EntityManager, connection: Connection): Promise<void> {
  try {
    await send(em, connection, [{ text: 'rollback' }]);
  } catch (err) {
    connection.__knex__disposed = err;
    await connection.end().catch(() => undefined);
  }
}

/**
 * Statements through the driver in one round trip, outside any transaction of the ORM; answers
 * each one's rows. For the hottest paths only (bids, authentication): there the ORM's query
 * building and unit of work cost several times the statements themselves (bench/bids.mjs).
 */
export async function rawQuery(em: EntityManager, ...statements: Statement[]): Promise<{ rows: Rows; rowCount: number | null }[]> {
  const pool = poolOf(em);
  const connection = await pool.acquireConnection();
  try {
    return await send(em, connection, statements);
  } catch (err) {
    // Statements may have opened a transaction that the failure left aborted: never pool it so.
    await rollback(em, connection);
    throw err;
  } finally {
    await pool.releaseConnection(connection);
  }
}

/**
 * A transaction through the driver, for the hottest path (bids): `opening` is sent with the
 * `begin` in one round trip and `work` gets the rows of each of its statements; `work` ends
 * with `commitWith` (or the transaction commits on its own). A failure rolls everything back.
 */
export async function rawTransaction<T>(em: EntityManager, opening: Statement[], work: (tx: RawTransaction, opened: Rows[]) => Promise<T>): Promise<T> {
  const pool = poolOf(em);
  const connection = await pool.acquireConnection();
  let open = true;
  try {
    const opened = await send(em, connection, [{ text: 'begin' }, ...opening]);
    const tx: RawTransaction = {
      commitWith: async (statements) => {
        const results = await send(em, connection, [...statements, { text: 'commit' }]);
        open = false;
        return results.slice(0, statements.length).map((r) => r.rows);
      },
    };
    const result = await work(
      tx,
      opened.slice(1).map((r) => r.rows),
    );
    if (open) await send(em, connection, [{ text: 'commit' }]);
    open = false;
    return result;
  } catch (err) {
    if (open) await rollback(em, connection);
    throw err;
  } finally {
    await pool.releaseConnection(connection);
  }
}
