import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { z } from 'zod';
import type { RequestContext } from '../core/context';
import { invalid, unauthenticated } from '../core/errors';
import { refuseUnknownKey } from '../core/policies';
import { hasNul } from '../core/input-scan';
import type { Services } from '../services';
import { strictBody } from './body-attributes';
import { JSONAPI, type TopLevel } from './document';
import type { FieldRendering } from './fields';
import { parseQuery, type ParsedQuery, type QuerySpec } from './query';

export interface RouteRequest {
  ctx: RequestContext;
  params: Record<string, string>;
  query: ParsedQuery;
  /** The query string as sent, for links that keep every other parameter. */
  search: URLSearchParams;
  path: string;
  body: unknown;
  koa: Context;
  /** Whether the request asks for the document of an operation that answers 204 otherwise (`represented`): unasked, none is built. */
  representation: boolean;
}

/** What the OpenAPI document says of an operation (`rest/openapi.ts`): every route has a summary. */
export interface Described {
  summary: string;
  description?: string;
}

/** A request body: a JSON:API document whose `data` has this `type`. */
export interface BodySpec {
  type: string;
  /** The domain input that validates the attributes; their wire names are its fields' snake_case. */
  input?: z.ZodType;
  /** Fields of the input that are no attributes (taken from the path or from `data.id`). */
  omit?: readonly string[];
  /** `data.id`: the resource named, when the operation needs it. */
  id?: 'required' | 'optional';
  /** `data` is a list of such resources. */
  list?: true;
}

export interface RouteOptions extends Described {
  /**
   * The operation is not public (docs/rest.md, "Who is calling"): without a valid signature or
   * token it answers 401 before the input is looked at, so that authentication comes first.
   * `'key'` also admits a verified key that is no account yet (self-registration).
   */
  authenticated?: true | 'key';
  query?: QuerySpec;
  /** Success status; 204 answers with no body. */
  status?: number;
  /** Where the operation's domain input comes from (and the wire's names where they differ), for the sources of its errors: the body by default. */
  fields?: FieldRendering;
  /** The request body, or a multipart form (`documents`); none when absent. */
  body?: BodySpec | 'multipart';
  /** The JSON:API type of the answer's `data`; in a one-item array when `data` is a list; null when `data` is null (facts in `meta`). */
  response?: string | readonly [string] | null;
  /**
   * A 204 operation that answers its handler's document instead, with 200, to a request that asks
   * `Prefer: return=representation` (RFC 7240): the type of that document's `data`, as `response`.
   */
  represented?: string | readonly [string];
}

/** Whether a Prefer header (RFC 7240: preferences separated by commas, each with parameters after ";") asks return=representation. */
export const prefersRepresentation = (prefer: string): boolean =>
  prefer.split(',').some((p) => p.split(';')[0].replace(/[\s"]/g, '').toLowerCase() === 'return=representation');

/** A route served by a plain Koa middleware (not a JSON:API operation): what it answers. */
export interface RawOptions extends Described {
  /** The media type of a successful answer. */
  produces: string;
}

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The area of the operations the service runs for itself (health, metrics, GraphQL, this reference): last in the reference. */
export const INFRASTRUCTURE = 'infrastructure';

/** One registered operation, as the OpenAPI document describes it; `area` is its group there (a module's name). */
export type Operation = { method: Method; path: string; area: string } & ({ kind: 'jsonapi'; options: RouteOptions } | { kind: 'raw'; options: RawOptions });

type Handler = (req: RouteRequest) => Promise<TopLevel | null | void> | TopLevel | null | void;

/** A JSON:API operation as declared: what the bad-input and authorization suites walk. */
export type JsonApiOperation = Extract<Operation, { kind: 'jsonapi' }>;

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

/**
 * An operation that takes no document (a DELETE, an action such as `POST /lots/{id}/callbacks`)
 * refuses one rather than ignore it: JSON:API clients send such requests without a body, so a
 * body, even `{}`, is a client that believes it says something the operation would not hear.
 */
function refuseBody(raw: Buffer | null): void {
  if (raw !== null) throw invalid('unexpected_body', 'this operation takes no request document: send the request without a body', { pointer: '' });
}

/** The REST edge: each route is parse → service → presenter; this wraps the parse and the render. */
export class AppRouter {
  readonly koa = new Router();
  /** Every operation registered, in order: the source of `GET /openapi.json`. */
  readonly operations: Operation[] = [];

  get jsonApiOperations(): JsonApiOperation[] {
    return this.operations.filter((o): o is JsonApiOperation => o.kind === 'jsonapi');
  }

  /** The area the operations registered now belong to: see `within`. */
  private area = INFRASTRUCTURE;

  constructor(readonly services: Services) {}

  /** Registers the operations `register` adds as one area of the reference: a module's routes under its name. */
  within(area: string, register: () => void): void {
    const outer = this.area;
    this.area = area;
    try {
      register();
    } finally {
      this.area = outer;
    }
  }

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

  /** A route that answers something other than a JSON:API document (HTML, a file, a JWKS). */
  raw(methods: readonly Method[], path: string, options: RawOptions, middleware: Middleware) {
    for (const method of methods) this.operations.push({ method, path, area: this.area, kind: 'raw', options });
    if (methods.length === 1) this.koa[methods[0]](path, middleware);
    else this.koa.register(path, methods.map((m) => m.toUpperCase()), middleware);
  }

  private add(method: Method, path: string, options: RouteOptions, handler: Handler) {
    this.operations.push({ method, path, area: this.area, kind: 'jsonapi', options });
    const refuseUntaken = options.body && options.body !== 'multipart' ? strictBody(options.body) : undefined;
    this.koa[method](path, async (koa) => {
      koa.state.fields = options.fields ?? 'body';
      const ctx: RequestContext = koa.state.ctx;
      if (options.authenticated !== 'key') refuseUnknownKey(ctx);
      if (options.authenticated && !ctx.caller && !ctx.provenKey) {
        throw unauthenticated('unauthenticated', 'this operation needs a valid signature or bearer token');
      }
      refuseNul(koa.params, koa.query as Record<string, string | string[] | undefined>);
      if (refuseUntaken) refuseUntaken(koa.state.body);
      else if (!options.body) refuseBody(koa.state.rawBody);
      const query = parseQuery(options.query ?? {}, koa.query as Record<string, string | string[] | undefined>);
      const representation = options.represented !== undefined && prefersRepresentation(koa.get('prefer'));
      const result = await handler({
        ctx,
        params: koa.params,
        query,
        search: new URLSearchParams(koa.querystring),
        path: koa.path,
        body: koa.state.body,
        koa,
        representation,
      });
      koa.status = options.status ?? 200;
      if (options.represented !== undefined) koa.vary('Prefer');
      if (representation) {
        koa.status = 200;
        koa.set('Preference-Applied', 'return=representation');
      }
      if (koa.status !== 204) {
        koa.type = JSONAPI;
        koa.body = result ?? { data: null };
      }
    });
  }
}
