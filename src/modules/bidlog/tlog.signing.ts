import { DomainError } from '../../core/errors';
import { sql, type Sql } from '../../db/sql';

/** The SQLSTATE `tlog_signs` raises: the key named is no longer the one the log signs with. */
export const KEY_REPLACED = 'LK001';

/**
 * The SQL twin of "this key signs the log now" (`recordLogKey` keeps `tlog_keys`): true, or an error
 * `KEY_REPLACED` naming the key that took over. A log whose key was never recorded (a test's app,
 * which skips the start's agreement) accepts any. Stable, without columns: planned as a filter run
 * once per statement.
 */
export const SIGNING_KEY_FUNCTION = `create function tlog_signs(signer text) returns boolean language plpgsql stable as $$
declare
  current text;
begin
  select public_key into current from tlog_keys where until is null;
  if current is not null and current <> signer then
    raise exception 'the bid log''s key % was replaced by %', signer, current using errcode = '${KEY_REPLACED}', detail = current;
  end if;
  return true;
end
$$`;

/** A condition true while `publicKey` signs the log; the statement fails with `KEY_REPLACED` once it does not. */
export const signsAs = (publicKey: string): Sql => sql`tlog_signs(${publicKey})`;

/** The key that replaced this instance's, when `err` is the database's refusal `KEY_REPLACED`. */
export function replacingKeyOf(err: unknown): string | null {
  const e = err as { code?: unknown; detail?: unknown } | null;
  return e?.code === KEY_REPLACED && typeof e.detail === 'string' ? e.detail : null;
}

/** The answer to a request that needs the log's signature once this instance's key was replaced. */
export const keyReplaced = (current: string): DomainError =>
  DomainError.of('unavailable', 'log_key_replaced', `this instance's bid log key was replaced by ${current}: it no longer signs; send the request again (another instance answers it)`);
