import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { LotGql } from '../lots/lots.types';
import { BidLogGql } from './bidlog.types';

@Resolver(() => LotGql)
export class BidLogResolver {
  /** A whole chain per lot: meant for one lot at a time, as GET /lots/{id}/bid_log. */
  @FieldResolver(() => BidLogGql, { description: "GET /lots/{id}/bid_log: the lot's verifiable bid log" })
  async bidLog(@Root() lot: LotGql, @Ctx() { ctx, services }: GraphQLContext): Promise<BidLogGql> {
    return services.bidLog.get(ctx, { lotId: lot.id });
  }
}
