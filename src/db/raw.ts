import { createHash } from 'node:crypto';
import type { Socket } from 'node:net';
import type { EntityManager } from '@mikro-orm/postgresql';
import { LRUCache } from 'lru-cache';
import pg, { type Client } from 'pg';
import { serialize } from 'pg-protocol';
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

/** A connection of the ORM's pool: node-postgres' client, which runs one query at a time (a pipeline is one). */
type Connection = Client;

type Pool = BoundedPool<Connection>;

/** What one statement answered: its rows, and the count of its command tag (null for `begin`, say). */
export interface Result {
  rows: Rows;
  rowCount: number | null;
}

/** The ORM's pool hands timestamps over as PostgreSQL's text, which Date parses. */
export const timestamp = (v: unknown): Date | null => (v === null ? null : new Date(v as string | Date));

/** node-postgres' public conversion of a JavaScript value to its text for the server (dates, arrays, JSON). */
/** A parameter as it travels: text, a binary value (a `Buffer`, for bytea), or null. */
type WireValue = string | Buffer | null;

const { prepareValue } = (pg as unknown as { utils: { prepareValue(value: unknown): WireValue | undefined } }).utils;

/** A statement as the extended protocol takes it: `$n` placeholders, and the types of its literals. */
interface Prepared {
  name: string;
  text: string;
  types: number[];
  values: unknown[];
}

const INT4 = 23;
const INT8 = 20;
const NUMERIC = 1700;
const BOOL = 16;
/**
 * A value's type as its literal would have had it in the text (so that `select …, 6` still inserts
 * into a smallint): numbers and booleans typed, anything else (text, dates, bytes, null) left to
 * the server, as a quoted literal is.
 */
function typeOf(value: unknown): number {
  if (typeof value === 'boolean') return BOOL;
  if (typeof value !== 'number') return 0;
  if (!Number.isInteger(value)) return NUMERIC;
  return Math.abs(value) < 2 ** 31 ? INT4 : INT8;
}

/** Statement names by their types and text: the same statement gets the same name on every connection. */
const names = new Map<string, string>();
/** The hot paths' texts are few and fixed; past this many, a text is parsed unnamed each time. */
const NAMED_LIMIT = 500;

/**
 * `?` placeholders become `$n`; an array value (`sql.array` renders `array[?]::T[]`) travels as
 * one array parameter, `$n::T[]`, so a round's text is the same whatever the number of its bids.
 */
function prepared(statement: Statement): Prepared {
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
    text += `$${i + 1}${rest}`;
  }
  const types = params.map(typeOf);
  if (statement.customPlan) return { name: '', text, types, values: params.slice() };
  const key = `${types.join(',')}:${text}`;
  let name = names.get(key);
  if (name === undefined && names.size < NAMED_LIMIT) {
    name = `raw_${createHash('sha1').update(key).digest('hex').slice(0, 24)}`;
    names.set(key, name);
  }
  return { name: name ?? '', text, types, values: params.slice() };
}

interface Field {
  name: string;
  dataTypeID: number;
  format: string;
}

type Parser = (value: string) => unknown;
/** Builds one row from a DataRow's values and its columns' parsers. */
type RowMaker = (values: (string | null)[], parsers: Parser[]) => Record<string, unknown>;

/** Row makers by their columns' names: a statement's rows all share one, whichever connection reads them. */
const rowMakers = new LRUCache<string, RowMaker>({ max: NAMED_LIMIT });

/**
 * A row as one object literal of the result's columns. Copying an empty row and storing each
 * column by its name, as `pg` does, makes V8 look every name up again: 20 rows of 40 columns took
 * 28.5 µs that way and 9.5 µs this way. The names come from the server's row description and
 * enter the source only as JSON string literals; as with `pg`, a later column of the same name wins.
 */
function rowMaker(names: string[]): RowMaker {
  const key = names.join('\0');
  let make = rowMakers.get(key);
  if (!make) {
    // A literal `"__proto__":` would set the prototype; computed, it is a column like any other.
    const columns = names.map((name, i) => `${name === '__proto__' ? `[${JSON.stringify(name)}]` : JSON.stringify(name)}: v[${i}] === null ? null : p[${i}](v[${i}])`);
    make = new Function('v', 'p', `return { ${columns.join(', ')} };`) as RowMaker;
    rowMakers.set(key, make);
  }
  return make;
}

/** How the rows of a statement are read: its columns' parsers and its row maker. */
interface Described {
  parsers: Parser[];
  makeRow: RowMaker;
}

/** A statement that answers no rows (the server described it with NoData). */
const NO_ROWS: Described = { parsers: [], makeRow: () => ({}) };

type StatementState = 'parsed' | 'doubtful' | Described;

/**
 * The statements parsed on each connection, by name, and once run their rows' description; a
 * failed pipeline leaves its own in doubt.
 */
const parsedOn = new WeakMap<Connection, Map<string, StatementState>>();

function parsedStatementsOf(connection: Connection): Map<string, StatementState> {
  let parsed = parsedOn.get(connection);
  if (!parsed) parsedOn.set(connection, (parsed = new Map()));
  return parsed;
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


/**
 * Statements sent as one pipeline of the extended protocol: each bound and executed, one Sync
 * behind them all, so several statements cost one round trip and one write, and each is parsed
 * once per connection (a named statement) instead of at every call. A named statement's rows are
 * described by the server at its first run on a connection only, and the parsers and row maker
 * built from that description are kept with the statement. Like a multi-statement query, the
 * first error skips the rest.
 *
 * node-postgres' own pipeline mode, tried instead, writes each statement with a Sync of its own
 * and describes every run: the server then answers each statement with a flush of its own, and
 * the service reads and settles each apart. Against the build before the module borders, bids
 * over 100 lots fell to 0.78–0.85× and a listing's p50 rose to 1.11–1.13× (docs/benchmarks.md).
 * The pipeline is a query object of node-postgres' public kind (`client.query(submittable)`,
 * as pg-cursor's), which a client in pipeline mode refuses: the pool's clients are not in it.
 */
class Pipeline {
  readonly results: Result[] = [];
  /** Per statement, its rows' description when the connection already had it. */
  private readonly known: (Described | null)[] = [];
  /** The current statement's description: as the connection knew it, else as the server sent it, else no rows. */
  private current: Described = NO_ROWS;
  private rows: Rows = [];
  private error: unknown = null;
  /** The statements parsed on this pipeline's connection. */
  private readonly parsed: Map<string, StatementState>;

  constructor(
    private readonly connection: Connection,
    private readonly socket: Socket,
    /** The statements, as `test/helpers/statements.ts` reads them too. */
    readonly statements: Prepared[],
    private readonly done: (error: unknown, results: Result[]) => void,
  ) {
    this.parsed = parsedStatementsOf(connection);
  }

  /** node-postgres asks the query to write itself once the connection is free; an error returned fails it unwritten. */
  submit(): Error | undefined {
    // node-postgres' own encoder (pg-protocol), its messages gathered so that the pipeline leaves in one write.
    const out: Buffer[] = [];
    // What the statements parsed here were before, for a value that cannot be sent (nothing is).
    const before = new Map<string, StatementState | undefined>();
    try {
      for (const s of this.statements) {
        const state = s.name ? this.parsed.get(s.name) : undefined;
        if (state === undefined || state === 'doubtful') {
          // Closing a statement that does not exist is no error: a doubtful one is parsed afresh.
          if (state === 'doubtful') out.push(serialize.close({ type: 'S', name: s.name }));
          out.push(serialize.parse({ name: s.name, text: s.text, types: [...s.types] }));
          if (s.name) {
            before.set(s.name, state);
            this.parsed.set(s.name, 'parsed');
          }
        }
        out.push(serialize.bind({ statement: s.name, values: s.values.map((v) => prepareValue(v) ?? null) }));
        const known = typeof state === 'object' ? state : null;
        this.known.push(known);
        if (!known) out.push(serialize.describe({ type: 'P' }));
        out.push(serialize.execute());
      }
      out.push(serialize.sync());
    } catch (err) {
      for (const [name, state] of before) {
        if (state === undefined) this.parsed.delete(name);
        else this.parsed.set(name, state);
      }
      return err as Error;
    }
    this.current = this.known[0] ?? NO_ROWS;
    this.socket.write(Buffer.concat(out));
    return undefined;
  }

  handleRowDescription(message: { fields: Field[] }): void {
    this.current = {
      parsers: message.fields.map((f) => this.connection.getTypeParser(f.dataTypeID, f.format as 'text')),
      makeRow: rowMaker(message.fields.map((f) => f.name)),
    };
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    this.rows.push(this.current.makeRow(message.fields, this.current.parsers));
  }

  handleCommandComplete(message: { text: string }): void {
    const count = /(\d+)$/.exec(message.text);
    this.next({ rows: this.rows, rowCount: count ? Number(count[1]) : null });
    this.rows = [];
  }

  handleEmptyQuery(): void {
    this.next({ rows: [], rowCount: null });
  }

  /** The current statement is done: its description is kept for its next runs, and the next one's taken up. */
  private next(result: Result): void {
    const index = this.results.length;
    const name = this.statements[index]?.name;
    if (name && !this.known[index] && this.parsed.get(name) === 'parsed') this.parsed.set(name, this.current);
    this.results.push(result);
    this.current = this.known[index + 1] ?? NO_ROWS;
  }

  /** node-postgres hands the error over and forgets the query: the answer is given here. */
  handleError(error: unknown): void {
    // Which of the statements this pipeline parsed exist now is unknown.
    for (const s of this.statements) if (s.name && this.parsed.has(s.name)) this.parsed.set(s.name, 'doubtful');
    this.error = error;
    this.done(error, this.results);
  }

  handleReadyForQuery(): void {
    if (this.error === null) this.done(null, this.results);
  }

  handlePortalSuspended(): void {}
  handleCopyInResponse(): void {}
  handleCopyData(): void {}
}

/**
 * Sends statements in one round trip on a connection of the ORM's own pool; answers each one's
 * rows, or fails when the database does not answer within the pool's bound.
 */
function send(pool: Pool, connection: Connection, statements: Statement[]): Promise<Result[]> {
  const pipeline = statements.map(prepared);
  return pool.answered(
    connection,
    () =>
      new Promise((resolve, reject) => {
        const submittable = new Pipeline(connection, pool.socketOf(connection), pipeline, (error, results) => (error ? reject(error) : resolve(results)));
        connection.query(submittable);
      }),
    statements.some((s) => s.text === 'commit'),
  );
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
