import type { ErrorCode, ErrorCodeWithStatus, ErrorStatus } from './error-codes';

/**
 * Where in the input a fault lies. Services name a `field` of their operation's domain input
 * (camelCase, dotted: `amount`, `details.country`, `id`), which each edge renders in its own
 * terms (REST: a JSON pointer or a query parameter, GraphQL: the field). The other forms are the
 * REST edge's own: a pointer into the body, a query parameter, a header.
 */
/**
 * Where a fault is. A domain field is named as the domain input names it; `mentions` lists the
 * other fields its detail names (by the same names), which each edge renders as it renders fields.
 */
export type ErrorSource = { field: string; mentions?: readonly string[] } | { pointer: string } | { parameter: string } | { header: string };

export type ErrorKind =
  | 'invalid'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'bad_gateway'
  | 'unavailable'
  | 'internal';

export const STATUS_OF_KIND = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  bad_gateway: 502,
  unavailable: 503,
} as const satisfies Record<ErrorKind, ErrorStatus>;

/** The codes a kind of error may carry: those the table answers with the kind's status. */
export type CodeOfKind<K extends ErrorKind> = ErrorCodeWithStatus<(typeof STATUS_OF_KIND)[K]>;

/**
 * Values a client acts on after a refusal (the least bid that would be taken), as decimal
 * strings. GraphQL payloads answer them as fields of a `UserError`; the other renderings of an
 * error keep them in their detail text only.
 */
export interface ErrorValues {
  minimumAmount?: string;
  maximumAmount?: string;
}

export interface ErrorItem {
  code: ErrorCode;
  detail: string;
  source?: ErrorSource;
  meta?: Record<string, unknown>;
  values?: ErrorValues;
}

/**
 * The one error type of the domain. Services throw it; each edge maps it once
 * (REST: JSON:API error document, GraphQL: extensions.code and extensions.status).
 * A validation failure carries one item per faulty field.
 */
export class DomainError extends Error {
  readonly status: ErrorStatus;
  /** A rate limit's seconds until the operation is taken again; REST sends them as `Retry-After`. */
  retryAfter?: number;

  readonly kind: ErrorKind;
  readonly items: [ErrorItem, ...ErrorItem[]];

  constructor(kind: ErrorKind, items: [ErrorItem, ...ErrorItem[]]) {
    // A refusal is an answer, its stack of no use to anyone: captured, and formatted by graphql-js's
    // GraphQLError, it was a quarter of the time a burst of refused subscriptions held the event loop.
    const limit = Error.stackTraceLimit;
    if (STATUS_OF_KIND[kind] < 500) Error.stackTraceLimit = 0;
    super(items[0].detail);
    Error.stackTraceLimit = limit;
    this.kind = kind;
    this.items = items;
    this.name = 'DomainError';
    this.status = STATUS_OF_KIND[kind];
  }

  get code(): ErrorCode {
    return this.items[0].code;
  }

  static of<K extends ErrorKind>(kind: K, code: CodeOfKind<K>, detail: string, source?: ErrorSource): DomainError {
    return new DomainError(kind, [{ code, detail, ...(source ? { source } : {}) }]);
  }
}

/** A rate limit hit: `until` is when the operation is taken again. */
export function rateLimited(code: CodeOfKind<'rate_limited'>, detail: string, until: Date, source?: ErrorSource): DomainError {
  const error = DomainError.of('rate_limited', code, detail, source);
  error.retryAfter = Math.max(1, Math.ceil((until.getTime() - Date.now()) / 1000));
  return error;
}

export const invalid = (code: CodeOfKind<'invalid'>, detail: string, source?: ErrorSource) =>
  DomainError.of('invalid', code, detail, source);
export const unauthenticated = (code: CodeOfKind<'unauthenticated'>, detail: string) =>
  DomainError.of('unauthenticated', code, detail);
export const forbidden = (code: CodeOfKind<'forbidden'>, detail: string) => DomainError.of('forbidden', code, detail);
export const notFound = (code: CodeOfKind<'not_found'>, detail: string, source?: ErrorSource) =>
  DomainError.of('not_found', code, detail, source);
/** An invalid input with the values that would have been taken (`ErrorValues`). */
export const invalidWith = (code: CodeOfKind<'invalid'>, detail: string, source: ErrorSource, values: ErrorValues) =>
  new DomainError('invalid', [{ code, detail, source, values }]);
export const conflict = (code: CodeOfKind<'conflict'>, detail: string, source?: ErrorSource) =>
  DomainError.of('conflict', code, detail, source);
