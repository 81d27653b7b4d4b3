import { defaultFieldResolver, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { invalid } from '../core/errors';
import { scanInput } from '../core/input-scan';

/** The longest list an argument may hold: no operation of the service needs more, and resolving one does work per item. */
export const MAX_LIST_ITEMS = 1000;

function checked(resolve: GraphQLFieldResolver<unknown, unknown>): GraphQLFieldResolver<unknown, unknown> {
  return (source, args, context, info) => {
    const found = scanInput(args, MAX_LIST_ITEMS);
    if (found) {
      const field = found.path.join('.');
      throw found.fault === 'nul'
        ? invalid('nul_character', `${field} holds a NUL character (U+0000)`, { field })
        : invalid('too_many_items', `${field} has more than ${MAX_LIST_ITEMS} items`, { field });
    }
    return resolve(source, args, context, info);
  };
}

/**
 * Every field that takes arguments checks them before it resolves (or subscribes), once for both
 * HTTP and WebSocket: no string with a NUL character, which PostgreSQL cannot store, and no list
 * beyond `MAX_LIST_ITEMS`. Fields without arguments are left as they are, at no cost.
 */
export function guardArguments(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      if (!field.args.length) continue;
      field.resolve = checked(field.resolve ?? defaultFieldResolver);
      if (field.subscribe) field.subscribe = checked(field.subscribe);
    }
  }
  return schema;
}
