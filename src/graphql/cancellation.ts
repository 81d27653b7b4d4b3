import { isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { invalid } from '../core/errors';
import type { GraphQLContext } from './context';

/** Why an operation stopped: nobody is left to read its answer. */
export const clientGone = () => invalid('request_cancelled', 'the client closed the connection before the answer; the operation stopped');

function stopping(resolve: GraphQLFieldResolver<unknown, GraphQLContext>): GraphQLFieldResolver<unknown, GraphQLContext> {
  return (source, args, context, info) => {
    context.signal?.throwIfAborted();
    return resolve(source, args, context, info);
  };
}

/**
 * Every field with a resolver of its own (the ones that read: loaders, services) first checks
 * that the HTTP client is still there; once it went away, the rest of the operation resolves
 * nothing, so a query of many pages stops sending statements. Plain properties are left as they are.
 */
export function stopWhenClientGone(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (field.resolve) field.resolve = stopping(field.resolve as GraphQLFieldResolver<unknown, GraphQLContext>);
    }
  }
  return schema;
}
