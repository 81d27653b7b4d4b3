import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { changedBy } from '../db/query';
import { sql } from '../db/sql';

/**
 * What is kept of a seen write signature, for twice the clock window, so that a replay is refused
 * whichever instance receives it. Signatures are recorded with the read of their account
 * (account-reads.ts).
 */
export const replayDigest = (signature: Buffer): Buffer => createHash('sha256').update(signature).digest();

/** Deletes the records of signatures whose window has passed; answers how many went. */
export async function pruneSeenSignatures(em: EntityManager): Promise<number> {
  return changedBy(em, sql`delete from seen_signatures where expires_at < now()`);
}
