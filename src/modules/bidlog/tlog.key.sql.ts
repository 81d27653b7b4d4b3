import type { EntityManager } from '@mikro-orm/postgresql';
import { rowsOf } from '../../db/query';
import { sql } from '../../db/sql';

/**
 * The log key's public key the database holds; `publicKey` is recorded when it holds none yet,
 * or in its place when `replace` (a key the operator chose: a rotation). Of instances starting
 * together, the first insert wins and the others read it.
 */
export async function recordedLogKey(em: EntityManager, publicKey: string, replace: boolean): Promise<string> {
  await rowsOf(
    em,
    replace
      ? sql`insert into tlog_key (public_key) values (${publicKey}) on conflict (only_row) do update set public_key = excluded.public_key, recorded_at = now()`
      : sql`insert into tlog_key (public_key) values (${publicKey}) on conflict (only_row) do nothing`,
  );
  const [row] = await rowsOf<{ public_key: string }>(em, sql`select public_key from tlog_key`);
  return row.public_key;
}
