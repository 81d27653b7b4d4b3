import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery, type Statement } from '../db/raw';

/** What is kept of a seen signature. */
export const replayDigest = (signature: Buffer): Buffer => createHash('sha256').update(signature).digest();

/** Completes an insert into seen_signatures: a signature seen before inserts nothing. */
export const ON_CONFLICT = 'on conflict (digest) do nothing';

/** Where the claiming statement's answer is among those `claiming` sends. */
export const CLAIM_RESULT = 2;

/**
 * A statement that records a signature, in a transaction whose commit does not wait for the WAL
 * flush: the claim survives a crash but for its last moments (Migration20261122110000ReplayLogged)
 * and costs a signed write no flush of its own.
 */
export function claiming(statement: Statement): Statement[] {
  return [{ text: 'begin' }, { text: 'set local synchronous_commit = off' }, statement, { text: 'commit' }];
}

/**
 * Signatures of writes seen within the clock window, kept in PostgreSQL so that a replay is
 * refused whichever instance receives it.
 */
export class ReplayStore {
  constructor(private readonly em: EntityManager) {}

  /** True when the signature of this digest (`replayDigest`) had not been seen; records it until `expiresAt`. */
  async claim(digest: Buffer, expiresAt: Date): Promise<boolean> {
    const results = await rawQuery(this.em, ...claiming({ text: `insert into seen_signatures (digest, expires_at) values (?, ?) ${ON_CONFLICT}`, params: [digest, expiresAt] }));
    return results[CLAIM_RESULT].rowCount === 1;
  }

  async prune(): Promise<number> {
    const res = await this.em
      .getConnection()
      .execute<{ affectedRows: number }>('delete from seen_signatures where expires_at < now()', [], 'run');
    return res.affectedRows;
  }
}
