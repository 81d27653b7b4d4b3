import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind, type DocumentNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';
import { DomainError } from '../core/errors';
import type { RateLimiter } from '../modules/limits/rate-limit';
import type { GraphQLContext } from './context';

/** The twin of `POST /accounts`. */
const ACCOUNT_CREATION = 'createAccount';

/** The root fields a selection runs, through fragments and inline fragments too. */
function rootFields(selectionSet: SelectionSetNode, document: DocumentNode, seen = new Set<string>()): string[] {
  return selectionSet.selections.flatMap((s) => {
    if (s.kind === Kind.FIELD) return [s.name.value];
    if (s.kind === Kind.INLINE_FRAGMENT) return rootFields(s.selectionSet, document, seen);
    if (seen.has(s.name.value)) return [];
    seen.add(s.name.value);
    const fragment = document.definitions.find((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === s.name.value);
    return fragment ? rootFields(fragment.selectionSet, document, seen) : [];
  });
}

/**
 * A mutation counts against the caller's rate limits as a REST write does (`modules/limits/rate-limit.ts`),
 * `createAccount` against account creation too; a refusal answers 429 with `Retry-After`.
 * Queries are reads.
 */
export function graphqlRateLimit(limiter: RateLimiter): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ contextValue, operation, document }) {
          if (operation?.operation !== 'mutation') return;
          const creates = rootFields(operation.selectionSet, document).includes(ACCOUNT_CREATION);
          try {
            await limiter.hit(contextValue.ctx, creates ? 'account_creation' : 'write');
          } catch (err) {
            if (!(err instanceof DomainError)) throw err;
            const headers = new HeaderMap([['retry-after', String(err.retryAfter)]]);
            throw new GraphQLError(err.message, { originalError: err, extensions: { http: { status: err.status, headers } } });
          }
        },
      };
    },
  };
}
