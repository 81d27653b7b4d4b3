import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, Kind } from 'graphql';
import { unauthenticated } from '../core/errors';
import type { GraphQLContext } from './context';

const SELF_REGISTRATION = new Set(['createAccount']);

/**
 * A signature by a key that is no account yet is honoured only to register that account; on any
 * other operation it is refused like every invalid signature (PROTOCOL.md §9).
 */
export const selfRegistrationGuard: ApolloServerPlugin<GraphQLContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ contextValue, operation }) {
        const { rc } = contextValue;
        if (rc.caller || !rc.provenKey || !operation) return;
        const fields = operation.selectionSet.selections.map((s) => (s.kind === Kind.FIELD ? s.name.value : ''));
        if (operation.operation === 'mutation' && fields.every((f) => SELF_REGISTRATION.has(f))) return;
        const error = unauthenticated('signature_invalid', 'keyId is not a known account');
        throw new GraphQLError(error.message, { originalError: error, extensions: { http: { status: 401 } } });
      },
    };
  },
};
