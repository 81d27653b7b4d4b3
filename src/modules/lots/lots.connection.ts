import type { GraphQLResolveInfo } from 'graphql';
import type { Untrusted } from '../../core/validate';
import type { GraphQLContext } from '../../graphql/context';
import { fieldsUnder } from '../../graphql/selections';
import { embeddableOf } from './lots.embedded';
import type { LotPageInput } from './lots.input';
import type { LotConnectionGql } from './lots.types';

/**
 * A page of lots as a GraphQL connection (`lots`, the viewer's lists): the relations asked for
 * under `nodes` are read by the page's own statement, then found by the field resolvers in the
 * request's loaders.
 */
export async function lotConnection(context: GraphQLContext, info: GraphQLResolveInfo, input: Untrusted<LotPageInput>): Promise<LotConnectionGql> {
  const { ctx, services, loaders } = context;
  const view = await services.lots.index(ctx, input, embeddableOf(fieldsUnder(info, 'nodes')));
  for (const [lotId, bids] of view.embedded?.bids ?? []) loaders.bids.prime(lotId, bids);
  for (const [lotId, callbacks] of view.embedded?.callbacks ?? []) loaders.callbacks.prime(lotId, callbacks);
  for (const [id, account] of view.embedded?.accounts ?? []) loaders.account.prime(id, services.accounts.shown(ctx, account));
  return {
    nodes: services.lots.views(ctx, view),
    pageInfo: { hasNextPage: view.next !== null, hasPreviousPage: view.prev !== null, endCursor: view.next, startCursor: view.prev },
  };
}
