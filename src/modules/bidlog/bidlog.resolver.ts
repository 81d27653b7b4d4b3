import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import type { Source } from '../../graphql/source';
import { LotGql } from '../lots/lots.types';
import { BidLogGql } from './bidlog.types';

@Resolver(() => LotGql)
export class BidLogResolver {
  /** The logs of a page of lots are read at once, through the request's loader. */
  @FieldResolver(() => BidLogGql, { description: "GET /lots/{id}/bid_log: the lot's verifiable bid log" })
  async bidLog(@Root() lot: Source<LotGql>, @Ctx() { ctx, services, loaders }: GraphQLContext): Promise<BidLogGql> {
    return services.bidLog.seen(ctx, lot, await loaders.bidLogs.load(lot.id));
  }
}
