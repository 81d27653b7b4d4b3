import type { EntityManager } from '@mikro-orm/postgresql';
import { countOf, rowsOf } from '../../db/query';
import { sql, type Sql } from '../../db/sql';
import { overSql } from '../lots';
import { CreateLotRequest, RequestState } from './requests.entity';
import { windowOf } from '../../db/window';
import type { ListWindow, WindowPage } from '../../core/list-window';
import { REQUEST_STATE_CODES, type RequestFilterQuery, type RequestListQuery } from './requests.input';

/** Who may see which requests, and which account's requests are asked for. */
export interface RequestScope {
  /** The caller sees requests it filed, and those of the platforms whose staff it is. */
  callerId: string;
  staffOf: string[];
  /** GET /accounts/{id}/create_lot_requests: requests filed by, or reviewed by, this account. */
  accountId?: string;
}

const sortColumn = sql.identifiers(['created_at', 'updated_at']);

/**
 * Archived: rejected, permanently rejected, and approved requests whose lot has
 * ended (its end has passed, or it was closed).
 */
const archived = (now: Date) => sql`(r.request_state in (${sql.list([RequestState.Rejected, RequestState.PermanentlyRejected])})
  or (r.request_state = ${RequestState.Approved} and exists (select 1 from lots l where l.id = r.lot_id and ${overSql(now)})))`;

function conditions(scope: RequestScope, q: RequestFilterQuery, now: Date): Sql {
  const parts = [
    scope.staffOf.length ? sql`(r.requestor = ${scope.callerId} or r.platform_id in (${sql.list(scope.staffOf)}))` : sql`r.requestor = ${scope.callerId}`,
  ];
  if (scope.accountId !== undefined) parts.push(sql`(r.requestor = ${scope.accountId} or r.platform_id = ${scope.accountId})`);
  if (q.requestor !== undefined) parts.push(sql`r.requestor = ${q.requestor}`);
  if (q.reviewer !== undefined) parts.push(sql`r.platform_id = ${q.reviewer}`);
  if (q.state) parts.push(sql`r.request_state in (${sql.list(q.state.map((s) => REQUEST_STATE_CODES[s]))})`);
  if (q.archived === true) parts.push(archived(now));
  if (q.archived === false) parts.push(sql`not ${archived(now)}`);
  return sql.and(parts);
}

/** One number/size page of requests and the count of every match: one SQL statement each. */
export async function listRequests(em: EntityManager, scope: RequestScope, q: RequestListQuery): Promise<{ items: CreateLotRequest[]; total: number }> {
  const where = conditions(scope, q, new Date());
  const order = sql.orderBy([sql`r.${sortColumn(q.sort.key)}`, sql`r.id`], q.sort.desc);
  const rows = await rowsOf<Record<string, unknown>>(em, sql`select r.* from create_lot_requests r where ${where} order by ${order} limit ${q.size} offset ${q.page * q.size}`);
  return { items: rows.map((row) => em.map(CreateLotRequest, row)), total: await countOf(em, sql`create_lot_requests r where ${where}`) };
}

/** One window of the requests, newest first, paged in the database (`requestsConnection`): one statement, count included. */
export async function windowOfRequests(em: EntityManager, scope: RequestScope, q: RequestFilterQuery, window: ListWindow): Promise<WindowPage<CreateLotRequest>> {
  const page = await windowOf<Record<string, unknown>>(
    em,
    { columns: sql`r.*`, from: sql`create_lot_requests r`, where: conditions(scope, q, new Date()), order: { key: sql`r.created_at`, id: sql`r.id` } },
    window,
  );
  return { ...page, items: page.items.map((row) => em.map(CreateLotRequest, row)) };
}
