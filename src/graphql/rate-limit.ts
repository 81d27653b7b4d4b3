import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind, type FragmentDefinitionNode } from 'graphql';
import { DomainError } from '../core/errors';
import type { RateLimiter } from '../modules/limits';
import type { GraphQLContext } from './context';
import { selectedFields } from './selections';

/** The twins of `POST /accounts`: a mutation that creates an account counts as one, whatever its name. */
const ACCOUNT_CREATIONS = new Set(['createAccount', 'registerAccount']);

/**
 * Each field of a mutation counts against the caller's rate limits as a REST write does
 * (`modules/limits/rate-limit.ts`), each `createAccount` and `registerAccount` against account creation too: a hundred
 * aliased writes in one request are a hundred writes. A refusal, before any field runs, answers
 * 429 with `Retry-After`. Queries are reads.
 */
export function graphqlRateLimit(limiter: RateLimiter): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ contextValue, operation, document }) {
          if (operation?.operation !== 'mutation') return;
          const fragmentOf = (name: string) => document.definitions.find((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === name);
          const fields = selectedFields(operation.selectionSet, fragmentOf).filter((f) => f.name.value !== '__typename');
          const accountCreations = fields.filter((f) => ACCOUNT_CREATIONS.has(f.name.value)).length;
          try {
            await limiter.hit(contextValue.ctx, { writes: Math.max(1, fields.length), accountCreations });
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
