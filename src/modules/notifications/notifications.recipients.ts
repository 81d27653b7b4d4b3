import type { EntityManager } from '@mikro-orm/postgresql';
import type { AccountColumns } from '../../core/account-columns';
import { staffQuery } from '../../core/policies';
import { rowsOf } from '../../db/query';

/**
 * The staff of a platform as recipients, by id. Reads in `em`'s transaction,
 * so it may be called while emitting. An id that is no platform yields its admins only (none).
 */
export async function staffOf(em: EntityManager, platformId: string): Promise<string[]> {
  const rows = await rowsOf<Pick<AccountColumns, 'id'>>(em, staffQuery(platformId));
  return rows.map((r) => r.id);
}
