import { Field, ID, InterfaceType } from 'type-graphql';
import { isInterfaceType, type GraphQLSchema } from 'graphql';
import { invalid } from '../../core/errors';
import type { GraphQLContext } from '../context';

/**
 * How a type refetches one of its objects by its key: the very service call of the type's own
 * query, so with its permission checks. `field` names the argument the global id came in (`id`,
 * `ids.3`), for a key the call refuses.
 */
export type NodeFetch = (key: string, context: GraphQLContext, field: string) => Promise<object>;

/** What of an object its global id holds: its `id`, unless the `id` alone does not name it (an entry of one of several lists). */
export type NodeKey = (source: { id: string }) => string;

const fetchers = new Map<string, NodeFetch>();
const keys = new Map<string, NodeKey>();

/** Makes a type that implements `Node` refetchable through `node(id:)`; call once per type, beside its query. */
export function registerNode(typeName: string, fetch: NodeFetch, key?: NodeKey): void {
  fetchers.set(typeName, fetch);
  if (key) keys.set(typeName, key);
}

/** The key a global id of `typeName` holds for `source`. */
export const nodeKeyOf = (typeName: string, source: { id: string }): string => keys.get(typeName)?.(source) ?? source.id;

/** A global id: the type and the type's own id, opaque to clients (they pass it back to `node(id:)`). */
export const encodeGlobalId = (typeName: string, id: string): string => Buffer.from(`${typeName}:${id}`, 'utf8').toString('base64url');

export function decodeGlobalId(globalId: string, field: string): { typeName: string; id: string; fetch: NodeFetch } {
  const fault = () => invalid('invalid_node_id', `${field} is not a global id of this service`, { field });
  if (globalId.length > 512 || !/^[A-Za-z0-9_-]+$/.test(globalId)) throw fault();
  const text = Buffer.from(globalId, 'base64url').toString('utf8');
  const colon = text.indexOf(':');
  const typeName = text.slice(0, colon);
  const fetch = colon > 0 ? fetchers.get(typeName) : undefined;
  const id = text.slice(colon + 1);
  if (!fetch || !id) throw fault();
  return { typeName, id, fetch };
}

/** The source of an object answered as a `Node`: its concrete type travels with it. */
export type NodeSource = object & { __typename: string };

/**
 * Relay's object identification, under the id field `nodeId`: every type keeps its `id` as it was
 * (clients key caches on `__typename` and `id`), and Relay's compiler takes another name for the
 * node id field (`nodeInterfaceIdField`).
 */
@InterfaceType('Node', { description: 'An object with a global id, refetchable by `node(id:)`' })
export abstract class NodeGql {
  @Field(() => ID, { description: 'The global id: pass it to `node(id:)` to refetch this object' }) nodeId!: string;
}

/** Interfaces besides `Node` whose sources name their concrete type (`__typename`). */
const typedBySource = new Set<string>(['Node']);

/** Makes an interface's type resolver read `__typename` off its source; call once, beside the interface. */
export function resolveTypeBySource(interfaceName: string): void {
  typedBySource.add(interfaceName);
}

/**
 * Gives `Node` (and each interface of `resolveTypeBySource`) a synchronous type resolver: a
 * source names its type. type-graphql's own resolvers answer a promise, which graphql-jit
 * (jit.ts) does not await for an abstract type.
 */
export function resolveNodeTypes(schema: GraphQLSchema): GraphQLSchema {
  for (const name of typedBySource) {
    const type = schema.getType(name);
    if (isInterfaceType(type)) type.resolveType = (value) => (value as NodeSource).__typename;
  }
  return schema;
}
