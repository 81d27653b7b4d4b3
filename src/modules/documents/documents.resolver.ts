import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Extensions, ID, Info, Int, Query, Resolver } from 'type-graphql';
import { ConnectionArgs, connectionOfList, pageWindow, type ConnectionSource } from '../../graphql/types/connection';
import { DocumentConnectionGql } from './documents.connection.types';
import type { GraphQLContext } from '../../graphql/context';
import { registerNode } from '../../graphql/types/node';
import { DocumentGql, documentGql, DocumentPageGql } from './documents.types';
import { runsStatement } from '../../graphql/statement-cost';

async function documentById(id: string, { ctx, services }: Pick<GraphQLContext, 'ctx' | 'services'>): Promise<DocumentGql> {
  const { document, storageLink } = await services.documents.get(ctx, id);
  return documentGql(document, storageLink);
}
registerNode('Document', documentById);

@Resolver()
export class DocumentsResolver {
  @Extensions(runsStatement())
  @Query(() => DocumentGql, { nullable: true, description: 'GET /documents/{id}: public documents to anyone, private ones to their owners' })
  document(@Arg('id', () => ID) id: string, @Ctx() context: GraphQLContext): Promise<DocumentGql> {
    return documentById(id, context);
  }

  @Extensions(runsStatement())
  @Query(() => DocumentPageGql, { description: 'GET /documents?in=…: the named documents, each owned by the caller, in the order named', deprecationReason: 'Use `documentsConnection`' })
  async documents(
    @Arg('in', () => [ID], { description: 'Document ids' }) ids: string[],
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('page', () => Int, { nullable: true, description: 'From 0' }) page?: number | null,
    @Arg('size', () => Int, { nullable: true, description: '1 to 100; 10 by default' }) size?: number | null,
  ): Promise<DocumentPageGql> {
    const result = await services.documents.list(ctx, { ids, page: page ?? undefined, size: size ?? undefined });
    return { items: result.items.map((d) => documentGql(d, '')), totalItems: result.total, page: result.page, size: result.size };
  }

  @Extensions(runsStatement())
  @Query(() => DocumentConnectionGql, { description: 'The named documents, each owned by the caller, in the order named (each once)' })
  async documentsConnection(
    @Arg('in', () => [ID], { description: 'Document ids: 1 to 1000' }) ids: string[],
    @Ctx() { ctx, services }: GraphQLContext,
    @Args() page: ConnectionArgs,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ConnectionSource<DocumentGql>> {
    const window = pageWindow(page, 'Query.documentsConnection', info);
    return connectionOfList(window, await services.documents.owned(ctx, ids), (d) => d.id, (items) => items.map((d) => documentGql(d, '')));
  }
}
