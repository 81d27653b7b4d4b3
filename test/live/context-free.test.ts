import { getNamedType, GraphQLID, GraphQLObjectType, GraphQLSchema, GraphQLString, isAbstractType, isObjectType, type GraphQLNamedType } from 'graphql';
import { getMetadataStorage } from 'type-graphql';
import { buildAppSchema } from '../../src/graphql/schema';
import { CONTEXT_FREE, isContextFree } from '../../src/live/context-free';

/**
 * Fields under a context-free subscription that have a resolver of their own, each reviewed to
 * read its parent and arguments only: `Type.field`. Add one only after reading its resolver.
 */
const VETTED = new Set<string>([
  // Node's id field (src/modules/system/node.resolver.ts): the parent's id and its type's name, read off `info`.
  'BidEvent.nodeId',
]);

const contextFreeSubscriptions = (schema: GraphQLSchema) => Object.values(schema.getSubscriptionType()?.getFields() ?? {}).filter((f) => isContextFree(f));

/**
 * Every field reachable from a context-free subscription's type that may read the context: one
 * with a resolver of its own (graphql's default property read, `resolve` undefined, sees the
 * parent only), and any `isTypeOf` or `resolveType` on the way, unless vetted.
 */
function contextReaders(schema: GraphQLSchema, vetted: ReadonlySet<string>): string[] {
  const found: string[] = [];
  const seen = new Set<string>();
  const walk = (type: GraphQLNamedType) => {
    if (seen.has(type.name)) return;
    seen.add(type.name);
    if (isAbstractType(type)) {
      if (type.resolveType && !vetted.has(`${type.name}.resolveType`)) found.push(`${type.name}.resolveType`);
      for (const possible of schema.getPossibleTypes(type)) walk(possible);
      return;
    }
    if (!isObjectType(type)) return;
    if (type.isTypeOf && !vetted.has(`${type.name}.isTypeOf`)) found.push(`${type.name}.isTypeOf`);
    for (const field of Object.values(type.getFields())) {
      const name = `${type.name}.${field.name}`;
      if (field.resolve && !vetted.has(name)) found.push(name);
      walk(getNamedType(field.type));
    }
  };
  for (const subscription of contextFreeSubscriptions(schema)) walk(getNamedType(subscription.type));
  return found;
}

describe('context-free subscriptions', () => {
  const schema = buildAppSchema();

  it('are bidPlaced only', () => {
    expect(contextFreeSubscriptions(schema).map((f) => f.name)).toEqual(['bidPlaced']);
  });

  it('reach no field that may read the context', () => {
    expect(contextReaders(schema, VETTED)).toEqual([]);
  });

  it('take neither the context nor middleware in their own resolvers', () => {
    for (const field of contextFreeSubscriptions(schema)) {
      const handler = getMetadataStorage().subscriptions.find((s) => s.schemaName === field.name);
      expect(handler).toBeDefined();
      expect({ field: field.name, params: (handler?.params ?? []).map((p) => p.kind).filter((k) => k === 'context' || k === 'custom') }).toEqual({ field: field.name, params: [] });
      expect({ field: field.name, middlewares: handler?.middlewares ?? [], roles: handler?.roles }).toEqual({ field: field.name, middlewares: [], roles: undefined });
    }
  });

  it('would be caught gaining a field that reads the context', () => {
    const event = new GraphQLObjectType({
      name: 'BidEvent',
      fields: {
        id: { type: GraphQLID },
        bidderId: { type: GraphQLString, resolve: (_root, _args, context: { caller: string }) => context.caller },
      },
    });
    const subscription = new GraphQLObjectType({ name: 'Subscription', fields: { bidPlaced: { type: event, extensions: CONTEXT_FREE } } });
    const query = new GraphQLObjectType({ name: 'Query', fields: { ping: { type: GraphQLString } } });
    const gained = new GraphQLSchema({ query, subscription });
    expect(contextReaders(gained, VETTED)).toEqual(['BidEvent.bidderId']);
    expect(contextReaders(gained, new Set(['BidEvent.bidderId']))).toEqual([]);
  });
});
