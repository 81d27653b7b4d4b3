import type { ApolloServerPlugin } from '@apollo/server';
import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import type { ErrorCode, ErrorStatus } from '../core/error-codes';
import { DomainError, type ErrorSource } from '../core/errors';
import { databaseFault } from '../db/faults';
import { loggable } from '../core/loggable';
import type { Logger } from '../core/logger';
import type { GraphQLContext } from './context';


/** Domain fields are named as they are; other sources pass as they are. */
function fieldOf(source: ErrorSource) {
  return 'field' in source ? { field: source.field } : { source };
}

const GRAPHQL_CODES: Record<string, { code: ErrorCode; status: ErrorStatus }> = {
  GRAPHQL_PARSE_FAILED: { code: 'graphql_parse_failed', status: 400 },
  GRAPHQL_VALIDATION_FAILED: { code: 'graphql_validation_failed', status: 400 },
  BAD_USER_INPUT: { code: 'bad_user_input', status: 400 },
  PERSISTED_QUERY_NOT_FOUND: { code: 'persisted_query_not_found', status: 400 },
  PERSISTED_QUERY_NOT_SUPPORTED: { code: 'persisted_query_not_supported', status: 400 },
  OPERATION_RESOLUTION_FAILURE: { code: 'operation_resolution_failure', status: 400 },
  BAD_REQUEST: { code: 'bad_request', status: 400 },
};

/** The error a GraphQL error stands for: a DomainError (a lost database is one) or the unexpected failure itself. */
function originalOf(error: unknown): unknown {
  const unwrapped = unwrapResolverError(error);
  const original = unwrapped instanceof GraphQLError && unwrapped.originalError ? unwrapped.originalError : unwrapped;
  return databaseFault(original) ?? original;
}

/**
 * Apollo refuses some requests with an HTTP 4xx status and no code: a persisted query whose
 * hash does not match its text, or of another version than 1. They are the caller's fault.
 */
function refusedRequest(error: unknown): boolean {
  if (!(error instanceof GraphQLError) || error.extensions.code !== undefined || error.originalError) return false;
  const status = (error.extensions.http as { status?: unknown } | undefined)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

const ECHO = /^Variable "\$[_A-Za-z][_0-9A-Za-z]*" got invalid value /;

/** Where the value graphql-js's `inspect` wrote at `start` ends: a JSON string, or an object or list of such, balanced. */
function inspectedEnd(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '\\') i++;
      }
    } else if (c === '{' || c === '[') {
      depth++;
    } else if (c === '}' || c === ']') {
      depth--;
    }
    if (depth === 0) return i + 1;
  }
  return -1;
}

/**
 * A variable that did not coerce is answered with the value graphql-js (and graphql-jit) found at
 * fault, written out: for an input object, the whole object, whose other fields may be secrets
 * (`registerPlatform`'s seed, `updatePassword`'s passwords). An object or a list is left out;
 * the path and the reason, which name the fault, stay.
 */
function withoutEchoedInput(message: string): string {
  const echo = ECHO.exec(message);
  if (!echo || !['{', '['].includes(message.charAt(echo[0].length))) return message;
  const end = inspectedEnd(message, echo[0].length);
  return end < 0 ? echo[0].trimEnd() : `${echo[0].trimEnd()}${message.slice(end)}`;
}

const isUnexpected = (error: unknown, code: unknown) => !(originalOf(error) instanceof DomainError) && !GRAPHQL_CODES[String(code)] && !refusedRequest(error);

/**
 * One mapping of errors for GraphQL: a DomainError keeps its machine code and HTTP status;
 * anything unexpected is answered without its message or stack, and logged through `log` when
 * given (over HTTP, `internalErrorRequestId` logs it with the request id instead).
 */
export function graphqlErrorFormatter(log: Logger | null) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = originalOf(error);
    const base = { locations: formatted.locations, path: formatted.path };
    if (original instanceof DomainError) {
      const sources = original.items
        .filter((i) => i.source)
        .map((i) => ({ code: i.code, detail: i.detail, ...fieldOf(i.source as ErrorSource) }));
      return {
        ...base,
        message: original.message,
        extensions: {
          code: original.code,
          status: original.status,
          ...(sources.length ? { errors: sources } : {}),
          ...(original.items[0].meta ? { meta: original.items[0].meta } : {}),
        },
      };
    }
    const known = refusedRequest(error) ? GRAPHQL_CODES.BAD_REQUEST : GRAPHQL_CODES[String(formatted.extensions?.code)];
    if (known) return { ...base, message: withoutEchoedInput(formatted.message), extensions: { ...known } };
    log?.error({ err: loggable(original) }, 'graphql operation failed');
    return { ...base, message: 'an unexpected error occurred', extensions: { code: 'internal_error', status: 500 } };
  };
}

/**
 * An unexpected error names the request it failed in (also the X-Request-Id
 * header), as REST's 5xx bodies do in `meta.request_id`, and the log line carries the same id.
 */
export function internalErrorRequestId(log: Logger): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart({ contextValue }) {
      const { requestId } = contextValue.ctx;
      return {
        async didEncounterErrors({ errors }) {
          for (const error of errors) {
            if (isUnexpected(error, error.extensions?.code)) log.error({ err: loggable(originalOf(error)), requestId }, 'graphql operation failed');
          }
        },
        async willSendResponse({ response }) {
          if (response.body.kind !== 'single' || !response.body.singleResult.errors) return;
          response.body.singleResult.errors = response.body.singleResult.errors.map((e) =>
            e.extensions?.code === 'internal_error' ? { ...e, extensions: { ...e.extensions, requestId } } : e,
          );
        },
      };
    },
  };
}

/**
 * Apollo answers a persisted query it does not know with HTTP 200, as its first clients needed;
 * the code is listed with 400 (docs/errors.md), which Apollo Client's persisted-query link reads
 * as well: the answer carries that status.
 */
export const persistedQueryStatus: ApolloServerPlugin<GraphQLContext> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind === 'single' && response.body.singleResult.errors?.some((e) => e.extensions?.code === 'persisted_query_not_found')) response.http.status = 400;
      },
    };
  },
};
