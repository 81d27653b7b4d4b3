import type { EntityManager } from '@mikro-orm/postgresql';
import { CreateLotRequest, RequestState } from './requests.entity';
import { REQUEST_STATE_CODES, type RequestListQuery } from './requests.input';

/** Who may see which requests, and which account's requests are asked for. */
export interface RequestScope {
  /** The caller sees requests it filed, and those of the platforms whose staff it is. */
  callerId: string;
  staffOf: string[];
  /** GET /accounts/{id}/create_lot_requests: requests filed by, or reviewed by, this account. */
  accountId?: string;
}

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');
const SORT_COLUMNS = { created_at: 'r.created_at', updated_at: 'r.updated_at' } as const;

/**
 * Archived (PROTOCOL.md §8): rejected, permanently rejected, and approved requests whose lot has
 * ended (its end has passed, or it was closed).
 */
const ARCHIVED = `(r.request_state in (${RequestState.Rejected}, ${RequestState.PermanentlyRejected})
  or (r.request_state = ${RequestState.Approved}
      and exists (select 1 from lots l where l.id = r.lot_id and (l.end_time <= ? or l.lot_state <> 1))))`;

function conditions(scope: RequestScope, q: RequestListQuery, now: Date) {
  const parts: string[] = [];
  const params: unknown[] = [];
  const add = (text: string, ...values: unknown[]) => {
    parts.push(text);
    params.push(...values);
  };
  if (scope.staffOf.length) add(`(r.requestor = ? or r.platform_id in (${placeholders(scope.staffOf.length)}))`, scope.callerId, ...scope.staffOf);
  else add('r.requestor = ?', scope.callerId);
  if (scope.accountId !== undefined) add('(r.requestor = ? or r.platform_id = ?)', scope.accountId, scope.accountId);
  if (q.requestor !== undefined) add('r.requestor = ?', q.requestor);
  if (q.reviewer !== undefined) add('r.platform_id = ?', q.reviewer);
  if (q.state) add(`r.request_state in (${placeholders(q.state.length)})`, ...q.state.map((s) => REQUEST_STATE_CODES[s]));
  if (q.archived === true) add(ARCHIVED, now);
  if (q.archived === false) add(`not ${ARCHIVED}`, now);
  return { text: parts.join(' and '), params };
}

/** One number/size page of requests and the count of every match: one SQL statement each. */
export async function listRequests(em: EntityManager, scope: RequestScope, q: RequestListQuery): Promise<{ items: CreateLotRequest[]; total: number }> {
  const where = conditions(scope, q, new Date());
  const dir = q.sort.desc ? 'desc' : 'asc';
  const connection = em.getConnection();
  const rows = await connection.execute<Record<string, unknown>[]>(
    `select r.* from create_lot_requests r where ${where.text}
     order by ${SORT_COLUMNS[q.sort.key]} ${dir}, r.id ${dir} limit ? offset ?`,
    [...where.params, q.size, q.page * q.size],
  );
  const [count] = await connection.execute<{ n: string }[]>(`select count(*) as n from create_lot_requests r where ${where.text}`, where.params);
  return { items: rows.map((row) => em.map(CreateLotRequest, row)), total: Number(count.n) };
}
