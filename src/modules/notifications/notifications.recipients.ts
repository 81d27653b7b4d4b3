import type { EntityManager } from '@mikro-orm/postgresql';
import { rowsOf } from '../../db/query';
import { sql } from '../../db/sql';
import { AccountType } from '../accounts/accounts.entity';

/**
 * "Staff of platform P" as recipients (PROTOCOL.md §4, §7): the platform account P itself and
 * every admin of P or whose trusting_platforms contains P, by id. Reads in `em`'s transaction,
 * so it may be called while emitting. An id that is no platform yields its admins only (none).
 */
export async function staffOf(em: EntityManager, platformId: string): Promise<string[]> {
  const rows = await rowsOf<{ id: string }>(em, staffQuery(platformId));
  return rows.map((r) => r.id);
}

/** The ids of the staff of the platform, in order. */
export const staffQuery = (platformId: string) =>
  sql`select id from accounts
    where (id = ${platformId} and account_type = ${AccountType.Platform})
       or (account_type = ${AccountType.Admin} and (platform_id = ${platformId} or ${platformId} = any (trusting_platforms)))
    order by id`;
