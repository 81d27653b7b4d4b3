import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind, type GraphQLField } from 'graphql';
import { DomainError } from '../core/errors';
import { refuseUnknownKey } from '../core/policies';
import type { GraphQLContext } from './context';

/** The extensions (type-graphql's `@Extensions`) of the mutation by which a key that is no account yet registers its account. */
export const SELF_REGISTRATION = { selfRegistration: true } as const;

const isSelfRegistration = (field: GraphQLField<unknown, unknown> | undefined) => field?.extensions.selfRegistration === true;

/** An operation signed by a key that is no account yet passes only when each of its fields is self-registration. */
export const selfRegistrationGuard: ApolloServerPlugin<GraphQLContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ contextValue, operation, schema }) {
        if (!operation) return;
        const root = operation.operation === 'mutation' ? schema.getMutationType()?.getFields() : undefined;
        const fields = operation.selectionSet.selections.map((s) => (s.kind === Kind.FIELD ? root?.[s.name.value] : undefined));
        if (fields.every(isSelfRegistration)) return;
        try {
          refuseUnknownKey(contextValue.ctx);
        } catch (err) {
          const error = err as DomainError;
          throw new GraphQLError(error.message, { originalError: error, extensions: { http: { status: 401 } } });
        }
      },
    };
  },
};
