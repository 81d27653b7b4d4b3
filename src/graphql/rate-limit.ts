import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind, type FragmentDefinitionNode } from 'graphql';
import { DomainError } from '../core/errors';
import type { RateLimiter } from '../modules/limits/rate-limit';
import type { GraphQLContext } from './context';
import { selectedFields } from './selections';

/** The twin of `POST /accounts`. */
const ACCOUNT_CREATION = 'createAccount';

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
          const fragmentOf = (name: string) => document.definitions.find((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === name);
          const creates = selectedFields(operation.selectionSet, fragmentOf).some((f) => f.name.value === ACCOUNT_CREATION);
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
