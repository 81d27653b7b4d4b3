import type { EntityManager } from '@mikro-orm/postgresql';
import { rowsOf } from '../../db/query';
import { sql } from '../../db/sql';

/** The `master_key` table's one row. */
interface MasterKeyColumns {
  public_key: string;
}

/**
 * The master account's public key the database holds; `publicKey` is recorded when it holds none
 * yet (its first start). Of instances starting together, the first insert wins and the others
 * read it.
 */
export async function recordedMasterKey(em: EntityManager, publicKey: string): Promise<string> {
  await rowsOf(em, sql`insert into master_key (public_key) values (${publicKey}) on conflict (only_row) do nothing`);
  const [row] = await rowsOf<MasterKeyColumns>(em, sql`select public_key from master_key`);
  return row.public_key;
}
