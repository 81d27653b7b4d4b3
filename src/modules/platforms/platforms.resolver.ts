import { Arg, Ctx, Extensions, ID, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { runsOwnStatement } from '../../graphql/statement-cost';
import { CurrencyGql } from '../../graphql/types/money';
import type { StatsUnit } from '../lots';
import { payloadOf } from '../../graphql/user-errors';
import { asStored } from '../idempotency';
import { AddMasterAccountSignerInput, AddMasterAccountSignerPayloadGql } from './platforms.signers.types';
import { platformStatsGql, PlatformStatsGql, StatsIntervalGql } from './platforms.stats.types';

type Added = Omit<AddMasterAccountSignerPayloadGql, 'userErrors'>;

@Resolver()
export class PlatformsResolver {
  @Mutation(() => Boolean, { description: 'Adds a signer of the master account; loopback callers only', deprecationReason: 'Use addMasterAccountSigner' })
  async addMasterSigner(
    @Arg('publicKey', () => String) publicKey: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<boolean> {
    await services.platforms.addMasterSigner(ctx, { publicKey });
    return true;
  }

  @Mutation(() => AddMasterAccountSignerPayloadGql, { description: 'POST /master/signers: adds a signer of the master account; loopback callers only; a refusal is answered in userErrors' })
  async addMasterAccountSigner(@Arg('input', () => AddMasterAccountSignerInput) input: AddMasterAccountSignerInput, @Ctx() { ctx, services }: GraphQLContext): Promise<AddMasterAccountSignerPayloadGql> {
    const { idempotencyKey, publicKey } = input;
    return payloadOf<Added>({ publicKey: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'addMasterAccountSigner', input: { publicKey } }, asStored<Added>(), async () => {
        await services.platforms.addMasterSigner(ctx, { publicKey });
        return { publicKey };
      }),
    );
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
