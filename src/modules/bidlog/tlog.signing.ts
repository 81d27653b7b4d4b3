import { DomainError } from '../../core/errors';
import { sql, type Sql } from '../../db/sql';

/**
 * The SQLSTATE of `tlog_signs`, the SQL twin of the current key that `recordLogKey` records (made
 * by the migration TlogSigningKey): raised for any other key, with the current one as its detail.
 * A log whose key was never recorded (a test's app skips the start's agreement) accepts any key.
 * `test/bidlog/tlog-signing-twin.test.ts` keeps the two equal.
 */
export const KEY_REPLACED = 'LK001';

/** A condition true while `publicKey` signs the log; the statement fails with `KEY_REPLACED` once it does not. */
export const signsAs = (publicKey: string): Sql => sql`tlog_signs(${publicKey})`;

/**
 * What orders the appends of leaves against a rotation of the log's key (docs/bid-log.md, "A key's
 * period"). A writer of leaves holds the key's period, shared with the other writers, from a statement
 * before the one that appends, whose snapshot then sees any rotation that committed first; `rotate`
 * ends it alone. So a rotation waits for the appends under way and numbers their leaves before its
 * own, and an append that waited for a rotation finds its key replaced (`KEY_REPLACED`).
 */
export const holdKeyPeriod = sql`select pg_advisory_xact_lock_shared(hashtextextended('bid-log:key-period', 0))`;
export const endKeyPeriod = sql`select pg_advisory_xact_lock(hashtextextended('bid-log:key-period', 0))`;

/** The key that replaced this instance's, when `err` is the database's refusal `KEY_REPLACED`. */
export function replacingKeyOf(err: unknown): string | null {
  const e = err as { code?: unknown; detail?: unknown } | null;
  return e?.code === KEY_REPLACED && typeof e.detail === 'string' ? e.detail : null;
}

/** The answer to a request that needs the log's signature once this instance's key was replaced. */
export const keyReplaced = (current: string): DomainError =>
  DomainError.of('unavailable', 'log_key_replaced', `this instance's bid log key was replaced by ${current}: it no longer signs; send the request again (another instance answers it)`);
