import type { EntityManager } from '@mikro-orm/postgresql';
import { keysetClauses } from '../../db/keyset';
import { countOf, rowsOf } from '../../db/query';
import { sql, type Sql } from '../../db/sql';
import { keysetPage, planKeyset } from '../../core/cursors';
import type { KeysetPage } from '../../core/page';
import { Deposit } from './trading.entity';
import { DEPOSIT_STATE_CODES, type DepositPage } from './trading.input';

/** Whose deposits the caller sees: its own, those on lots it organizes, those on its platforms' lots. */
export interface DepositScope {
  accountId: string;
  platforms: string[];
}

/** The deposits of the caller's scope that the filter names. */
function depositConditions(scope: DepositScope, filter: DepositPage['filter']): Sql {
  const visible = [sql`d.account_id = ${scope.accountId}`, sql`l.organizer_id = ${scope.accountId}`];
  if (scope.platforms.length) visible.push(sql`l.publisher_id in (${sql.list(scope.platforms)})`);
  const conditions = [sql.or(visible)];
  if (filter.state) conditions.push(sql`d.state in (${sql.list(filter.state.map((s) => DEPOSIT_STATE_CODES[s]))})`);
  if (filter.lotId !== undefined) conditions.push(sql`d.lot_id = ${filter.lotId}`);
  return sql.and(conditions);
}

/** How many deposits the listing's pages hold in all: one statement. */
export async function depositCount(em: EntityManager, scope: DepositScope, filter: DepositPage['filter']): Promise<number> {
  return countOf(em, sql`deposits d join lots l on l.id = d.lot_id where ${depositConditions(scope, filter)}`);
}

/** One keyset page of deposits (GET /deposits): one statement, every value a parameter. */
export async function depositPage(em: EntityManager, scope: DepositScope, req: DepositPage): Promise<KeysetPage<Deposit>> {
  const keyset = { key: req.sort.key, desc: req.sort.desc, cursor: req.page.cursor, limit: req.page.limit, fromEnd: req.page.fromEnd };
  const plan = planKeyset(keyset);
  const page = keysetClauses(sql`d.created_at`, 'timestamp', sql`d.id`, plan);
  const rows = await rowsOf<Record<string, unknown>>(
    em,
    sql`select d.*, ${page.sortValue} as sort_value from deposits d join lots l on l.id = d.lot_id
     where ${depositConditions(scope, req.filter)} and ${page.beyond} order by ${page.orderBy} limit ${plan.take}`,
  );
  const positions = new Map<Deposit, { value: string; id: string }>();
  const deposits = rows.map((row) => {
    const { sort_value: value, ...columns } = row;
    const deposit = em.map(Deposit, columns);
    positions.set(deposit, { value: value as string, id: deposit.id });
    return deposit;
  });
  return keysetPage(keyset, plan, deposits, (d) => positions.get(d) as { value: string; id: string });
}
