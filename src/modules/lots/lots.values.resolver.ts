import { Extensions, FieldResolver, Resolver, Root } from 'type-graphql';
import type { Source } from '../../graphql/source';
import { LotGql, LotStateGql, LotTypeGql } from './lots.types';
import { lotPricesGql, LotPricesGql, vehicleDetailsGql, VehicleDetailsGql } from './lots.values.types';
import type { LotView } from './lots.view';
import { runsNoStatement } from '../../graphql/statement-cost';

/** A lot's typed values (enums, Money, its vehicle), beside the fields they replace. */
@Resolver(() => LotGql)
export class LotValuesResolver {
  @Extensions(runsNoStatement())
  @FieldResolver(() => LotStateGql, { description: 'The state the lot is stored in; `status` also tells scheduled, live and ended lots apart' })
  state(@Root() lot: Source<LotView>): number {
    return lot.lotState;
  }

  @Extensions(runsNoStatement())
  @FieldResolver(() => LotTypeGql)
  type(@Root() lot: Source<LotView>): number {
    return lot.lotType;
  }

  @Extensions(runsNoStatement())
  @FieldResolver(() => LotPricesGql, { description: "The lot's amounts in its own currency, whatever `currency` the lot was asked in" })
  prices(@Root() lot: Source<LotView>): LotPricesGql {
    return lotPricesGql(lot.amounts);
  }

  @Extensions(runsNoStatement())
  @FieldResolver(() => VehicleDetailsGql)
  vehicle(@Root() lot: Source<LotView>): VehicleDetailsGql {
    return vehicleDetailsGql(lot.details);
  }
}
