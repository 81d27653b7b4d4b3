import { STATUS_CODES } from 'node:http';
import type { Context, Middleware } from 'koa';
import type { ErrorCode } from '../core/error-codes';
import { DomainError, type ErrorItem } from '../core/errors';
import { databaseFault, isOutage } from '../db/faults';
import { loggable } from '../core/loggable';
import type { Logger } from '../core/logger';
import { JSONAPI } from './document';
import { restItem, type FieldRendering } from './fields';

export interface ErrorObject {
  status: string;
  code: ErrorCode;
  title: string;
  detail: string;
  source?: { pointer: string } | { parameter: string } | { header: string };
  meta?: Record<string, unknown>;
}

function restSource(source: ErrorItem['source']) {
  if (!source) return {};
  if ('field' in source) throw new Error('a field source is rendered by restItem first');
  return { source };
}

function errorObject(status: number, item: ErrorItem): ErrorObject {
  return {
    status: String(status),
    code: item.code,
    title: STATUS_CODES[status] ?? 'Error',
    detail: item.detail,
    ...restSource(item.source),
    ...(item.meta ? { meta: item.meta } : {}),
  };
}

/**
 * Maps whatever was thrown to the JSON:API error document of docs/errors.md; never a stack trace.
 * `fields` says where the route's domain input came from (its body by default).
 */
export function toErrorDocument(thrown: unknown, requestId: string, fields: FieldRendering = 'body'): { status: number; body: { errors: ErrorObject[] } } {
  const err = databaseFault(thrown) ?? thrown;
  if (err instanceof DomainError) {
    // A 5xx is the service's failure, whatever its kind: its log line is found by the request's id.
    const traced = (i: ErrorItem): ErrorItem => (err.status >= 500 ? { ...i, meta: { ...i.meta, request_id: requestId } } : i);
    return { status: err.status, body: { errors: err.items.map((i) => errorObject(err.status, traced(restItem(i, fields)))) } };
  }
  const status = (err as { status?: number; expose?: boolean }).status;
  if (typeof status === 'number' && status >= 400 && status < 500 && (err as { expose?: boolean }).expose) {
    const code = status === 404 ? 'route_not_found' : 'bad_request';
    return { status, body: { errors: [errorObject(status, { code, detail: (err as Error).message })] } };
  }
  return {
    status: 500,
    body: {
      errors: [
        errorObject(500, { code: 'internal_error', detail: 'an unexpected error occurred', meta: { request_id: requestId } }),
      ],
    },
  };
}

/** The same failure in GraphQL's shape, for errors raised before a GraphQL operation runs. */
function asGraphqlErrors(status: number, errors: ErrorObject[]) {
  return {
    errors: errors.map((e) => ({ message: e.detail, extensions: { code: e.code, status, ...(e.meta ? e.meta : {}) } })),
  };
}

/**
 * What the router left unanswered: no route (404), or a path whose routes take other methods,
 * which the router answers with its `Allow` header only (405; 501 for a method it knows of no
 * route for, answered as 405 where the path has routes).
 */
function refuseUnrouted(koa: Context): void {
  const allowed = String(koa.response.get('Allow') ?? '');
  if ((koa.status === 405 || koa.status === 501) && allowed) {
    throw DomainError.of('method_not_allowed', 'method_not_allowed', `${koa.method} is not allowed on ${koa.path}; it allows ${allowed}`);
  }
  if (koa.status === 404 || koa.status === 501) {
    koa.remove('Allow');
    throw DomainError.of('not_found', 'route_not_found', `no route for ${koa.method} ${koa.path}`);
  }
}

/**
 * Failures whose cause the log tells where it happens, once (src/db/reachability.ts, the documents
 * storage): a line with a stack per request would bury the log, and fill a full disk further.
 */
const toldOnce = (err: unknown) => isOutage(err) || (err instanceof DomainError && (err.code === 'database_failing' || err.code === 'storage_unavailable'));

export function errorHandler(log: Logger, graphqlPath: string): Middleware<{ requestId: string; fields?: FieldRendering }> {
  return async (koa, next) => {
    try {
      await next();
      if (koa.body === undefined) refuseUnrouted(koa);
    } catch (thrown) {
      const err = databaseFault(thrown) ?? thrown;
      const { status, body } = toErrorDocument(err, koa.state.requestId, koa.state.fields);
      if (status >= 500 && !toldOnce(err)) log.error({ err: loggable(thrown), requestId: koa.state.requestId }, 'request failed');
      koa.status = status;
      if (err instanceof DomainError && err.retryAfter !== undefined) koa.set('Retry-After', String(err.retryAfter));
      if (koa.path === graphqlPath) {
        koa.type = 'application/json';
        koa.body = asGraphqlErrors(status, body.errors);
      } else {
        koa.type = JSONAPI;
        koa.body = body;
      }
    }
  };
}
