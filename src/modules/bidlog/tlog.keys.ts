import type { EntityManager } from '@mikro-orm/postgresql';
import { inTransaction } from '../../core/transaction';
import { rowsOf } from '../../db/query';
import { sql } from '../../db/sql';

export interface LogKey {
  publicKey: string;
  since: Date;
  /** When the next key took over; null for the key that signs now. */
  until: Date | null;
}

interface KeyRow {
  public_key: string;
  since: Date;
  until: Date | null;
}

/** Every key the log has signed with, oldest first. */
export async function logKeyHistory(em: EntityManager): Promise<LogKey[]> {
  const rows = await rowsOf<KeyRow>(em, sql`select public_key, since, until from tlog_keys order by since, public_key`);
  return rows.map((r) => ({ publicKey: r.public_key, since: new Date(r.since), until: r.until === null ? null : new Date(r.until) }));
}

/**
 * The key the log signs with now, as the database records it: `publicKey` on the first start; on a
 * start that names the current key as the one it `replaces`, `publicKey` from now on (a key that
 * signed before never comes back). Answers the current key after it, which the caller compares.
 */
export async function recordLogKey(em: EntityManager, publicKey: string, replaces: string | null): Promise<string> {
  return inTransaction({ em }, async (tx) => {
    // Instances starting together take turns: the first records, the others read.
    await rowsOf(tx, sql`lock table tlog_keys in share row exclusive mode`);
    const keys = await logKeyHistory(tx);
    const current = keys.find((k) => k.until === null)?.publicKey ?? null;
    if (current === null) {
      await rowsOf(tx, sql`insert into tlog_keys (public_key) values (${publicKey})`);
      return publicKey;
    }
    if (current !== publicKey && replaces === current && !keys.some((k) => k.publicKey === publicKey)) {
      await rowsOf(tx, sql`update tlog_keys set until = now() where until is null`);
      await rowsOf(tx, sql`insert into tlog_keys (public_key) values (${publicKey})`);
      return publicKey;
    }
    return current;
  });
}
