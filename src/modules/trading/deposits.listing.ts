import type { EntityManager } from '@mikro-orm/postgresql';
import { invalid } from '../../core/errors';
import { keysetPage, planKeyset, type KeysetPage } from '../../rest/pagination';
import { Deposit } from './trading.entity';
import { DEPOSIT_STATE_CODES, type DepositPage } from './trading.input';

/** Whose deposits the caller sees: its own, those on lots it organizes, those on its platforms' lots. */
export interface DepositScope {
  accountId: string;
  platforms: string[];
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

/** One keyset page of deposits (GET /deposits): one statement, every value a parameter. */
export async function depositPage(em: EntityManager, scope: DepositScope, req: DepositPage): Promise<KeysetPage<Deposit>> {
  const parts = [
    `(d.account_id = ? or l.organizer_id = ?${scope.platforms.length ? ` or l.publisher_id in (${placeholders(scope.platforms.length)})` : ''})`,
  ];
  const params: unknown[] = [scope.accountId, scope.accountId, ...scope.platforms];
  if (req.filter.state) {
    parts.push(`d.state in (${placeholders(req.filter.state.length)})`);
    params.push(...req.filter.state.map((s) => DEPOSIT_STATE_CODES[s]));
  }
  if (req.filter.lotId !== undefined) {
    parts.push('d.lot_id = ?');
    params.push(req.filter.lotId);
  }
  const keyset = { key: req.sort.key, desc: req.sort.desc, cursor: req.page.cursor, limit: req.page.limit };
  const plan = planKeyset(keyset);
  if (plan.after) {
    if (typeof plan.after.value !== 'string' || !TIMESTAMP.test(plan.after.value) || !/^\d{1,18}$/.test(plan.after.id)) {
      throw invalid('invalid_cursor', 'page[cursor] is not a cursor of this listing', { field: 'page.cursor' });
    }
    parts.push(`(d.created_at, d.id) ${plan.desc ? '<' : '>'} (?::timestamptz, ?::bigint)`);
    params.push(plan.after.value, plan.after.id);
  }
  const dir = plan.desc ? 'desc' : 'asc';
  params.push(plan.take);
  // Cursor values keep the database's full precision (microseconds), so ties never repeat a row.
  const rows = await em.getConnection().execute<Record<string, unknown>[]>(
    `select d.*, to_char(d.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as sort_value
     from deposits d join lots l on l.id = d.lot_id
     where ${parts.join(' and ')} order by d.created_at ${dir}, d.id ${dir} limit ?`,
    params,
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
