import type { MikroORM } from '@mikro-orm/postgresql';

/**
 * Tables a request may write whatever its input, so that a rejected request changing them is no
 * fault: `seen_signatures` records every signed write before its input is read (a replay must be
 * refused even when the first request failed), and `sign_in_failures` counts refused sign-ins
 * (counting them is what the sign-in limit is for), and `rate_limit_counters` counts every write (a refused
 * write counts against its caller's limits too).
 */
export const WRITTEN_BY_ANY_REQUEST = new Set(['seen_signatures', 'sign_in_failures', 'rate_limit_counters']);

/** One md5 per table of the public schema (but those above): equal maps mean no row changed. */
export async function checksums(orm: MikroORM): Promise<Record<string, string>> {
  const conn = orm.em.getConnection();
  const tables = (await conn.execute<{ name: string }[]>(`select tablename as name from pg_tables where schemaname = 'public' order by 1`))
    .map((t) => t.name)
    .filter((name) => !WRITTEN_BY_ANY_REQUEST.has(name));
  const parts = tables.map(
    (name) => `select '${name}' as name, md5(coalesce(string_agg(t::text, '' order by t::text), '')) as sum from "${name}" t`,
  );
  const rows = await conn.execute<{ name: string; sum: string }[]>(parts.join(' union all '));
  return Object.fromEntries(rows.map((r) => [r.name, r.sum]));
}

/** The tables whose checksum differs between two maps. */
export function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((name) => before[name] !== after[name]).sort();
}
