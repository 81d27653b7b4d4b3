import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery } from '../db/raw';

/** What is kept of a seen signature. */
export const replayDigest = (signature: Buffer): Buffer => createHash('sha256').update(signature).digest();

/** Completes an insert into seen_signatures: a signature seen before inserts nothing. */
export const ON_CONFLICT = 'on conflict (digest) do nothing';

/**
 * Signatures of writes seen within the clock window, kept in PostgreSQL so that a replay is
 * refused whichever instance receives it.
 */
export class ReplayStore {
  constructor(private readonly em: EntityManager) {}

  /** True when the signature of this digest (`replayDigest`) had not been seen; records it until `expiresAt`. */
  async claim(digest: Buffer, expiresAt: Date): Promise<boolean> {
    const res = await rawQuery(this.em, { text: `insert into seen_signatures (digest, expires_at) values (?, ?) ${ON_CONFLICT}`, params: [digest, expiresAt] });
    return res.rowCount === 1;
  }

  async prune(): Promise<number> {
    const res = await this.em
      .getConnection()
      .execute<{ affectedRows: number }>('delete from seen_signatures where expires_at < now()', [], 'run');
    return res.affectedRows;
  }
}
