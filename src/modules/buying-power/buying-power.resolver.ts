import { Arg, Ctx, Extensions, ID, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { formattedBuyingPower } from './buying-power.mappers';
import { BuyingPowerGql } from './buying-power.types';
import { runsStatement } from '../../graphql/statement-cost';

@Resolver()
export class BuyingPowerResolver {
  @Extensions(runsStatement())
  @Query(() => BuyingPowerGql, { nullable: true, description: "GET /accounts/{id}/buying_power: the account itself and the platform's staff; platformId defaults to the account's platform" })
  async buyingPower(
    @Arg('accountId', () => ID) accountId: string,
    @Arg('platformId', () => ID, { nullable: true }) platformId: string | undefined,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<BuyingPowerGql> {
    return formattedBuyingPower(await services.buyingPower.get(ctx, { accountId, platformId: platformId ?? undefined }));
  }
}
