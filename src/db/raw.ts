import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Client, QueryConfig } from 'pg';
import type { BoundedPool } from './bounded-dialect';
import { commitInDoubt } from './faults';

/** Rows of one statement, as the driver answers them. */
export type Rows = Record<string, unknown>[];

/** SQL with `?` placeholders and their values. */
export interface Statement {
  text: string;
  params?: readonly unknown[];
  /**
   * Planned afresh for its values at every run (sent unnamed), for a statement whose best plan
   * depends on them: a listing filtered by a range. A named statement is planned generically
   * after its fifth run when that plan's estimate looks cheaper, and a generic range's estimate is
   * a fixed guess: `country = $1 and year between $2 and $3`, newest first, was then read through
   * the (country, year) index and sorted, 5,286 of 100,000 lots (7 ms in bench/lots.mjs), where
   * its values' plan walks the start-time index through a few hundred. Sent unnamed, a statement
   * is parsed at every run too (about 0.05 ms more for a listing), so only such statements are.
   */
  customPlan?: boolean;
}

/** What the hot paths may do inside `rawTransaction`, besides reading what the opening answered. */
export interface RawTransaction {
  /** Sends `statements` in one round trip, the transaction still open; answers the rows of each. */
  query(statements: Statement[]): Promise<Rows[]>;
  /** Sends `statements` and the commit in one round trip; answers the rows of each statement. */
  commitWith(statements: Statement[]): Promise<Rows[]>;
}

/** A connection of the ORM's pool: node-postgres' client, opened in pipeline mode (src/db/orm.ts). */
type Connection = Client;

type Pool = BoundedPool<Connection>;

/** What one statement answered: its rows, and the count of its command tag (null for `begin`, say). */
export interface Result {
  rows: Rows;
  rowCount: number | null;
}

/** The ORM's pool hands timestamps over as PostgreSQL's text, which Date parses. */
export const timestamp = (v: unknown): Date | null => (v === null ? null : new Date(v as string | Date));

/**
 * A value's type as its literal would have had it in the text (so that `select …, 6` still inserts
 * into a smallint): numbers and booleans cast, anything else (text, dates, bytes, null) left to the
 * server, as a quoted literal is. The cast is written in the text, not given as the parameter's
 * type in the Parse message: node-postgres takes a query's `types` for its result's type parsers.
 */
function castOf(value: unknown): string {
  if (typeof value === 'boolean') return '::bool';
  if (typeof value !== 'number') return '';
  if (!Number.isInteger(value)) return '::numeric';
  return Math.abs(value) < 2 ** 31 ? '::int4' : '::int8';
}

/** Statement names by text: the same text gets the same name on every connection. */
const names = new Map<string, string>();
/** The hot paths' texts are few and fixed; past this many, a text is parsed unnamed each time. */
const NAMED_LIMIT = 500;
/** Names given afresh to texts whose prepared statements the server no longer runs (see `renamed`). */
let renamings = 0;

/**
 * `?` placeholders become `$n`; an array value (`sql.array` renders `array[?]::T[]`) travels as
 * one array parameter, `$n::T[]`, so a round's text is the same whatever the number of its bids.
 */
function prepared(statement: Statement): QueryConfig {
  const params = statement.params ?? [];
  const parts = statement.text.split('?');
  if (parts.length !== params.length + 1) throw new RangeError(`the statement has ${parts.length - 1} placeholders for ${params.length} values`);
  let text = parts[0];
  for (let i = 0; i < params.length; i++) {
    let rest = parts[i + 1];
    if (Array.isArray(params[i]) && text.endsWith('array[') && rest.startsWith(']')) {
      text = text.slice(0, -'array['.length);
      rest = rest.slice(1);
    }
    text += `$${i + 1}${castOf(params[i])}${rest}`;
  }
  const values = params.slice();
  if (statement.customPlan) return { text, values };
  let name = names.get(text);
  if (name === undefined && names.size < NAMED_LIMIT) {
    name = `raw_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return name === undefined ? { text, values } : { name, text, values };
}

/**
 * Sent at the start of every transaction of these paths. By default a named statement is planned
 * afresh at each of its first five runs, and on every run when its custom plans look cheaper; the
 * bid round's statements took longer to plan than to run (pg_stat_statements in bench/bids.mjs),
 * and their plans do not depend on the values. Local to the transaction: the setting would also
 * reach the ORM's unnamed statements on the same connection, whose plans may well depend on them.
 */
export const GENERIC_PLANS: Statement = { text: `select set_config('plan_cache_mode', 'force_generic_plan', true)` };

/**
 * `statements` as one transaction of their own, for `rawQuery` to send in one round trip: `begin`,
 * the generic plans, the statements, `commit`. The answer of `statements[i]` is at `i + 2`.
 */
export const alone = (statements: Statement[]): Statement[] => [{ text: 'begin' }, GENERIC_PLANS, ...statements, { text: 'commit' }];

/** PostgreSQL's SQLSTATE feature_not_supported, which a prepared statement whose table changed answers. */
const FEATURE_NOT_SUPPORTED = '0A000';

/**
 * A named statement whose result columns changed under it (a column added to its table) fails at
 * every run on each connection that prepared it: the server keeps it. Its text gets a new name, so
 * that its next run parses it afresh; node-postgres closes no statement, and the old one stays
 * with its session, unused.
 */
function renamed(query: QueryConfig, err: unknown): void {
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (!query.name || code !== FEATURE_NOT_SUPPORTED || !/cached plan must not change result type/.test(String(message))) return;
  if (names.get(query.text) === query.name) names.set(query.text, `${query.name.slice(0, 'raw_'.length + 24)}_${++renamings}`);
}

/**
 * Sends statements in one round trip on a connection of the ORM's own pool; answers each one's
 * rows, or fails when the database does not answer within the pool's bound. The connection is in
 * node-postgres' pipeline mode: each statement is written at once as Parse (at its first run on
 * the connection, for a named one), Bind, Describe, Execute and a Sync of its own, without
 * waiting for the answers to the ones before. Each ends its own implicit transaction, so a
 * failure does not skip the statements behind it: inside `begin`…`commit` they fail as the
 * transaction is aborted, and the commit answers ROLLBACK; the first error is the answer.
 */
function send(pool: Pool, connection: Connection, statements: Statement[]): Promise<Result[]> {
  const queries = statements.map(prepared);
  const answers = queries.map((query) =>
    connection.query(query).then(
      ({ rows, rowCount }): Result => ({ rows, rowCount }),
      (err: unknown) => {
        renamed(query, err);
        throw err;
      },
    ),
  );
  return pool.answered(connection, firstFailure(answers));
}

/** Every answer once all came; else the first failure in order, once all settled (so none is left unhandled). */
async function firstFailure(answers: Promise<Result>[]): Promise<Result[]> {
  const settled = await Promise.allSettled(answers);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<Result>).value);
}

const poolOf = (em: EntityManager) => em.getConnection().getKnex().client as unknown as Pool;

/**
 * Rolls back what a failure left open. When the rollback fails too, the session may still hold
 * its transaction and locks, or be dead without the driver having noticed yet: it is closed
 * (the server rolls back a closed session) and marked so that the pool destroys it rather than
 * hand it to the next caller.
 */
async function rollback(pool: Pool, connection: Connection): Promise<void> {
  try {
    await answeredWithin(send(pool, connection, [{ text: 'rollback' }]), ROLLBACK_ANSWER_MS);
  } catch {
    pool.discard(connection);
    await answeredWithin(connection.end(), ROLLBACK_ANSWER_MS).catch(() => undefined);
  }
}

/**
 * How long a rollback, and then the closing of its session, may take before the session counts as
 * lost. A session the server terminated can leave the driver waiting for an answer that never
 * comes (seen under load in test/db/raw.test.ts), and its connection would never go back to the pool.
 */
const ROLLBACK_ANSWER_MS = 2000;

async function answeredWithin<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Statements through the driver in one round trip, outside any transaction of the ORM; answers
 * each one's rows. For the hottest paths only (bids, authentication): there the ORM's query
 * building and unit of work cost several times the statements themselves (bench/bids.mjs).
 */
export async function rawQuery(em: EntityManager, ...statements: Statement[]): Promise<Result[]> {
  const pool = poolOf(em);
  const connection = await pool.acquireConnection();
  try {
    return await send(pool, connection, statements);
  } catch (err) {
    // Statements may have opened a transaction that the failure left aborted: never pool it so.
    await rollback(pool, connection);
    throw err;
  } finally {
    await pool.releaseConnection(connection);
  }
}

/** Sends `statements` and the commit in one round trip; a connection lost meanwhile leaves the outcome unknown. */
function committing(pool: Pool, connection: Connection, statements: Statement[]): Promise<Result[]> {
  return send(pool, connection, [...statements, { text: 'commit' }]).catch((err) => {
    throw commitInDoubt(err) ?? err;
  });
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
    const opened = await send(pool, connection, [{ text: 'begin' }, GENERIC_PLANS, ...opening]);
    const tx: RawTransaction = {
      query: async (statements) => (await send(pool, connection, statements)).map((r) => r.rows),
      commitWith: async (statements) => {
        const results = await committing(pool, connection, statements);
        open = false;
        return results.slice(0, statements.length).map((r) => r.rows);
      },
    };
    const result = await work(
      tx,
      opened.slice(2).map((r) => r.rows),
    );
    if (open) await committing(pool, connection, []);
    open = false;
    return result;
  } catch (err) {
    if (open) await rollback(pool, connection);
    throw err;
  } finally {
    await pool.releaseConnection(connection);
  }
}

/** The part of knex's transaction this file uses: its client, which answers the transaction's own connection. */
interface KnexTransaction {
  client: { acquireConnection(): Promise<Connection> };
}

/**
 * Runs `statement` as a named statement inside `em`'s open transaction (else on a pooled
 * connection, as `rawQuery`), answering its rows. For a statement of the ORM's transactions whose
 * planning costs more than its run, at every call: sent unnamed, as the ORM sends, the saved-search
 * match of a new lot took 1 ms to plan and 1.2 ms to run (bench/lot-create.mjs); named, a
 * connection plans it for its first few runs only, then keeps the generic plan.
 */
export async function preparedRows(em: EntityManager, statement: Statement): Promise<Rows> {
  const transaction = em.getTransactionContext<KnexTransaction>();
  if (!transaction) return (await rawQuery(em, statement))[0].rows;
  const connection = await transaction.client.acquireConnection();
  return (await send(poolOf(em), connection, [statement]))[0].rows;
}
