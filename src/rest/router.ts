import Router from '@koa/router';
import type { Context } from 'koa';
import type { RequestContext } from '../core/context';
import { invalid, unauthenticated } from '../core/errors';
import { hasNul } from '../core/input-scan';
import type { Services } from '../services';
import { JSONAPI, type TopLevel } from './document';
import type { FieldRendering } from './fields';
import { parseQuery, type ParsedQuery, type QuerySpec } from './query';

export interface RouteRequest {
  rc: RequestContext;
  params: Record<string, string>;
  query: ParsedQuery;
  /** The query string as sent, for links that keep every other parameter. */
  search: URLSearchParams;
  path: string;
  body: unknown;
  koa: Context;
}

export interface RouteOptions {
  /**
   * The operation is not public (PROTOCOL.md §3.6): without a valid signature or token it
   * answers 401 before the input is looked at, so that authentication comes first (§9).
   * `'key'` also admits a verified key that is no account yet (self-registration).
   */
  authenticated?: true | 'key';
  query?: QuerySpec;
  /** Success status; 204 answers with no body. */
  status?: number;
  /** Where the operation's domain input comes from (and the wire's names where they differ), for the sources of its errors: the body by default. */
  fields?: FieldRendering;
}

type Handler = (req: RouteRequest) => Promise<TopLevel | null | void> | TopLevel | null | void;
type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** A path segment or query parameter with a NUL character is refused before any service sees it (the body is checked as it is read). */
function refuseNul(params: Record<string, string>, query: Record<string, string | string[] | undefined>): void {
  for (const [name, value] of Object.entries(params)) {
    if (hasNul(value)) throw invalid('nul_character', `the path segment ${name} holds a NUL character (U+0000)`);
  }
  for (const [name, value] of Object.entries(query)) {
    const values = value === undefined ? [] : Array.isArray(value) ? value : [value];
    if (hasNul(name) || values.some(hasNul)) throw invalid('nul_character', `${name} holds a NUL character (U+0000)`, { parameter: name });
  }
}

/** The REST edge: each route is parse → service → presenter; this wraps the parse and the render. */
export class AppRouter {
  readonly koa = new Router();

  constructor(readonly services: Services) {}

  get(path: string, options: RouteOptions, handler: Handler) {
    this.add('get', path, options, handler);
  }
  post(path: string, options: RouteOptions, handler: Handler) {
    this.add('post', path, options, handler);
  }
  put(path: string, options: RouteOptions, handler: Handler) {
    this.add('put', path, options, handler);
  }
  patch(path: string, options: RouteOptions, handler: Handler) {
    this.add('patch', path, options, handler);
  }
  delete(path: string, options: RouteOptions, handler: Handler) {
    this.add('delete', path, options, handler);
  }

  private add(method: Method, path: string, options: RouteOptions, handler: Handler) {
    this.koa[method](path, async (koa) => {
      koa.state.fields = options.fields ?? 'body';
      const rc: RequestContext = koa.state.rc;
      if (options.authenticated && !rc.caller && !(options.authenticated === 'key' && rc.provenKey)) {
        throw unauthenticated('unauthenticated', 'this operation needs a valid signature or bearer token');
      }
      refuseNul(koa.params, koa.query as Record<string, string | string[] | undefined>);
      const query = parseQuery(options.query ?? {}, koa.query as Record<string, string | string[] | undefined>);
      const result = await handler({
        rc,
        params: koa.params,
        query,
        search: new URLSearchParams(koa.querystring),
        path: koa.path,
        body: koa.state.body,
        koa,
      });
      koa.status = options.status ?? 200;
      if (koa.status !== 204) {
        koa.type = JSONAPI;
        koa.body = result ?? { data: null };
      }
    });
  }
}
