import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, Extensions, FieldResolver, ID, Info, Query, Resolver, Root } from 'type-graphql';
import { invalid } from '../../core/errors';
import { MAX_PAGE_SIZE } from '../../core/page';
import type { GraphQLContext } from '../../graphql/context';
import { decodeGlobalId, encodeGlobalId, NodeGql, nodeKeyOf, type NodeSource } from '../../graphql/types/node';
import { runsNoStatement, runsStatement, runsStatementPerItem } from '../../graphql/statement-cost';

// The schema's object identification: `node`, `nodes` and every Node's `nodeId`. Each type
// registers its own refetch (`registerNode`) beside its query.

async function fetchNode(globalId: string, field: string, context: GraphQLContext): Promise<NodeSource> {
  const { typeName, id, fetch } = decodeGlobalId(globalId, field);
  return { ...(await fetch(id, context, field)), __typename: typeName };
}

@Resolver(() => NodeGql)
export class NodeResolver {
  @Extensions(runsNoStatement())
  @FieldResolver(() => ID)
  nodeId(@Root() source: { id: string }, @Info() info: GraphQLResolveInfo): string {
    return encodeGlobalId(info.parentType.name, nodeKeyOf(info.parentType.name, source));
  }

  @Extensions(runsStatement())
  @Query(() => NodeGql, { nullable: true, description: 'The object of a global id, as its type’s own query answers it (refusing it alike)' })
  node(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext): Promise<NodeSource> {
    return fetchNode(id, 'id', context);
  }

  // At most a page of ids, each refetched as its type's query does, most by a statement of its own:
  // the cost counts each id given with its statement.
  @Extensions(runsStatementPerItem())
  @Query(() => [NodeGql], { nullable: 'items', description: 'The objects of up to 100 global ids, in the order given; one refused is null with its error' })
  nodes(@Arg('ids', () => [ID]) ids: string[], @Ctx() context: GraphQLContext): Promise<(NodeSource | Error)[]> {
    if (ids.length > MAX_PAGE_SIZE) throw invalid('too_many_items', `ids has more than ${MAX_PAGE_SIZE} items`, { field: 'ids' });
    // Settled together, a refused one as its error in its place: given a list of promises, the compiled
    // executor (graphql-jit) dropped a refused last item that failed before those ahead of it answered.
    return Promise.all(ids.map((id, i) => fetchNode(id, `ids.${i}`, context).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))))));
  }
}
