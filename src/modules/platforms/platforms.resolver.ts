import { Arg, Ctx, Extensions, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { runsOwnStatement } from '../../graphql/statement-cost';
import { CurrencyGql } from '../../graphql/types/money';
import type { StatsUnit } from '../lots';
import { platformStatsGql, PlatformStatsGql, StatsIntervalGql } from './platforms.stats.types';

@Resolver()
export class PlatformsResolver {
  @Mutation(() => Boolean, { description: 'Adds a signer of the master account; loopback callers only' })
  async addMasterSigner(
    @Arg('publicKey', () => String) publicKey: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<boolean> {
    await services.platforms.addMasterSigner(ctx, { publicKey });
    return true;
  }

  @Query(() => PlatformStatsGql, {
    nullable: true,
    description: "A platform's lots listed and sold, bids, active bidders and GMV (in `currency`, USD by default) per interval from `from` to `to`, both at the start of an interval: for its staff and the master account",
  })
  @Extensions(runsOwnStatement())
  async platformStats(
    @Arg('platformId', () => ID) platformId: string,
    @Arg('from', () => Date) from: Date,
    @Arg('to', () => Date) to: Date,
    @Arg('interval', () => StatsIntervalGql) interval: StatsUnit,
    @Arg('currency', () => CurrencyGql, { nullable: true }) currency: string | undefined,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<PlatformStatsGql> {
    return platformStatsGql(await services.platformStats.stats(ctx, { platformId, from, to, interval, currency }));
  }
}
