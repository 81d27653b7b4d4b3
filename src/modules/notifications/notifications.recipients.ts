import type { EntityManager } from '@mikro-orm/postgresql';
import { staffQuery } from '../../core/policies';

/**
 * "Staff of platform P" as recipients (PROTOCOL.md §4, §7): the platform account P itself and
 * every admin of P or whose trusting_platforms contains P, by id. Reads in `em`'s transaction,
 * so it may be called while emitting. An id that is no platform yields its admins only (none).
 */
export async function staffOf(em: EntityManager, platformId: string): Promise<string[]> {
  const rows = await em.getConnection().execute<{ id: string }[]>(staffQuery('?'), [platformId, platformId, platformId], 'all', em.getTransactionContext());
  return rows.map((r) => r.id);
}
