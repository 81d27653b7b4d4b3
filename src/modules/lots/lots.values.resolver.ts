import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import type { Source } from '../../graphql/source';
import { ConnectionArgs, connectionOfList, pageWindow, type ConnectionSource } from '../../graphql/types/connection';
import { bidGql, BidConnectionGql, type BidGql } from '../bids';
import { LotGql, LotStateGql, LotTypeGql } from './lots.types';
import { lotPricesGql, LotPricesGql, vehicleDetailsGql, VehicleDetailsGql } from './lots.values.types';
import type { LotView } from './lots.view';

/** A lot's typed values (enums, Money, its vehicle) and its bids as a connection, beside the fields they replace. */
@Resolver(() => LotGql)
export class LotValuesResolver {
  @FieldResolver(() => LotStateGql, { description: 'The state the lot is stored in; `status` also tells scheduled, live and ended lots apart' })
  state(@Root() lot: Source<LotView>): number {
    return lot.lotState;
  }

  @FieldResolver(() => LotTypeGql)
  type(@Root() lot: Source<LotView>): number {
    return lot.lotType;
  }

  @FieldResolver(() => LotPricesGql, { description: "The lot's amounts in its own currency, whatever `currency` the lot was asked in" })
  prices(@Root() lot: Source<LotView>): LotPricesGql {
    return lotPricesGql(lot.amounts);
  }

  @FieldResolver(() => VehicleDetailsGql)
  vehicle(@Root() lot: Source<LotView>): VehicleDetailsGql {
    return vehicleDetailsGql(lot.details);
  }

  @FieldResolver(() => BidConnectionGql, { description: "The lot's bids, newest first, each naming its bidder only to those who may know it" })
  async bidsConnection(@Root() lot: Source<LotView>, @Args(() => ConnectionArgs) page: ConnectionArgs, @Ctx() { ctx, services, loaders }: GraphQLContext): Promise<ConnectionSource<BidGql>> {
    const window = pageWindow(page, `Lot:${lot.id}.bids`);
    const newestFirst = [...(await loaders.bids.load(lot.id))].reverse();
    return connectionOfList(window, newestFirst, (b) => b.id, (bids) => services.lots.seenBids(ctx, lot, bids).map(bidGql));
  }
}
