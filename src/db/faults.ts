import { DomainError } from '../core/errors';

/** PostgreSQL's SQLSTATE of a statement cancelled, here by `statement_timeout`. */
const QUERY_CANCELED = '57014';

/**
 * The node and PostgreSQL codes of a database that cannot be reached: refused or reset
 * connections, a server shutting down or starting up (57P0x), one that takes no more
 * connections (53300), and connection failures (class 08).
 */
const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', '57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006']);

/**
 * The codes with which the server refuses a new connection (FATAL) to a database that takes none
 * (55000, `allow_connections false`), that is gone (3D000: dropped or renamed), or to a role it no
 * longer lets in (28000, 28P01). Only as FATAL: as a statement's ERROR, 55000 is a bug of ours
 * (`currval` before `nextval`).
 */
const REFUSED_CONNECTION = new Set(['55000', '3D000', '28000', '28P01']);

/**
 * The database is up but cannot carry out statements: a full disk (a new page or file cannot be
 * written), no memory or other resources, an I/O or system error. No request of ours causes them,
 * and reads may still work.
 */
const FAILING: Record<string, string> = {
  '53000': 'it lacks the resources',
  '53100': 'its disk is full',
  '53200': 'it is out of memory',
  '58000': 'of a system error',
  '58030': 'of an I/O error',
};

/**
 * What node-postgres, its pool and knex say, without a code, when a connection died under them,
 * none could be had, or the server did not answer in time (`connectionTimeoutMillis`,
 * `query_timeout`; `timeout expired` is node-postgres' whole message for the first).
 */
const UNREACHABLE_MESSAGES = /Connection terminated|Connection ended unexpectedly|is not queryable|Timeout acquiring a connection|^timeout expired$|^Query read timeout$|timeout exceeded when trying to connect/;

/** Seconds a client is asked to wait before trying again: about the time a restarted server takes. */
const RETRY_SECONDS = 1;

interface Raised {
  code?: unknown;
  message?: unknown;
  severity?: unknown;
}

/** `err` and what it wraps, read by shape, not `instanceof Error`: the socket's errors may come from another realm (a VM context, jest). */
function* chain(err: unknown): Generator<Raised> {
  for (let e = err, depth = 0; typeof e === 'object' && e !== null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) yield e as Raised;
}

/** Whether `err` (or what it wraps) says the database is out of reach, rather than that a statement failed. */
export function isUnreachable(err: unknown): boolean {
  for (const { code, message, severity } of chain(err)) {
    if (typeof code === 'string' && (UNREACHABLE.has(code) || (severity === 'FATAL' && REFUSED_CONNECTION.has(code)))) return true;
    if (typeof message === 'string' && UNREACHABLE_MESSAGES.test(message)) return true;
  }
  return false;
}

/** The SQLSTATE of `err` when it says the database is failing (FAILING), else null. */
export function failingCode(err: unknown): string | null {
  for (const { code } of chain(err)) if (typeof code === 'string' && code in FAILING) return code;
  return null;
}

/**
 * The domain error a database failure stands for, when it has one; both edges map through here.
 * Neither is the request's fault nor an unexpected failure, and the request kept nothing (its
 * transaction rolled back): a database out of reach is 503 `database_unavailable`, a statement
 * cancelled by `DB_STATEMENT_TIMEOUT` (the service too busy or blocked) 503 `database_timeout`, one
 * the database failed for want of disk, memory or sound hardware 503 `database_failing`.
 */
export function databaseFault(err: unknown): DomainError | null {
  if (err instanceof DomainError) return null;
  if ((err as { code?: unknown } | null)?.code === QUERY_CANCELED) {
    return DomainError.of('unavailable', 'database_timeout', 'a database statement took too long and was cancelled; nothing of the request was kept; try again later');
  }
  const failing = failingCode(err);
  if (failing !== null) {
    return DomainError.of('unavailable', 'database_failing', `the database cannot carry out the request because ${FAILING[failing]} (SQLSTATE ${failing}); nothing of the request was kept; try again later`);
  }
  return isUnreachable(err) ? unavailable() : null;
}

function unavailable(): DomainError {
  const error = DomainError.of('unavailable', 'database_unavailable', 'the database cannot be reached; retry shortly');
  error.retryAfter = RETRY_SECONDS;
  return error;
}

/**
 * What work that waited behind `err` answers, when `err` says the database is out of reach: it
 * would only wait as long again for the same end. None of it was sent, so nothing of it was kept,
 * even when the work before it is in doubt.
 */
export function unavailableAfter(err: unknown): DomainError | null {
  return isUnreachable(err) || isOutage(err) ? unavailable() : null;
}

/**
 * What a commit whose connection died before its answer stands for. The server may have made the
 * transaction durable and then gone away (a fast shutdown, a reset) before the client read the
 * answer: no one can tell the request it was kept or that it was not (SQL's 40003,
 * statement_completion_unknown). It says so rather than claim either: the client reads it back
 * (the signature itself was claimed at authentication, so a retry needs a new one).
 */
export function commitInDoubt(err: unknown): DomainError | null {
  if (!isUnreachable(err)) return null;
  const error = DomainError.of('unavailable', 'outcome_unknown', 'the database went away while the request was committing: it may or may not have been kept; read it back before sending it again');
  error.retryAfter = RETRY_SECONDS;
  return error;
}

/**
 * Whether `err` is how a request fails while the database is out of reach. Nothing in it is news
 * to an operator: the database's going and return are logged once each (src/db/reachability.ts).
 */
export function isOutage(err: unknown): boolean {
  return err instanceof DomainError && (err.code === 'database_unavailable' || err.code === 'outcome_unknown');
}

