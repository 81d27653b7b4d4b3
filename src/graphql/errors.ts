import { unwrapResolverError } from '@apollo/server/errors';
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { DomainError, type ErrorSource } from '../core/errors';

const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** Attribute faults name the GraphQL input field; other sources pass as they are. */
function fieldOf(source: ErrorSource) {
  return 'attribute' in source ? { field: source.attribute.split('/').map(camel).join('.') } : { source };
}
import { loggable } from '../core/loggable';
import type { Logger } from '../core/logger';

const GRAPHQL_CODES: Record<string, { code: string; status: number }> = {
  GRAPHQL_PARSE_FAILED: { code: 'graphql_parse_failed', status: 400 },
  GRAPHQL_VALIDATION_FAILED: { code: 'graphql_validation_failed', status: 400 },
  BAD_USER_INPUT: { code: 'bad_user_input', status: 400 },
  PERSISTED_QUERY_NOT_FOUND: { code: 'persisted_query_not_found', status: 400 },
  PERSISTED_QUERY_NOT_SUPPORTED: { code: 'persisted_query_not_supported', status: 400 },
  OPERATION_RESOLUTION_FAILURE: { code: 'operation_resolution_failure', status: 400 },
  BAD_REQUEST: { code: 'bad_request', status: 400 },
};

/**
 * One mapping of errors for GraphQL: a DomainError keeps its machine code and HTTP status;
 * anything unexpected is logged and answered without its message or stack.
 */
export function graphqlErrorFormatter(log: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const unwrapped = unwrapResolverError(error);
    const original = unwrapped instanceof GraphQLError && unwrapped.originalError ? unwrapped.originalError : unwrapped;
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
    const known = GRAPHQL_CODES[String(formatted.extensions?.code)];
    if (known) return { ...base, message: formatted.message, extensions: { ...known } };
    log.error({ err: loggable(original) }, 'graphql operation failed');
    return { ...base, message: 'an unexpected error occurred', extensions: { code: 'internal_error', status: 500 } };
  };
}
