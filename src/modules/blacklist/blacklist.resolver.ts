import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { MAX_PAGE_SIZE } from '../../core/page';
import type { GraphQLContext } from '../../graphql/context';
import { BlacklistEntryGql } from './blacklist.types';

@Resolver()
export class BlacklistResolver {
  @Query(() => [BlacklistEntryGql], { description: "The newest `last` blacklisted accounts of the caller's platforms (by default and at most 100), oldest first; staff only" })
  blacklist(@Arg('last', () => Int, { defaultValue: MAX_PAGE_SIZE }) last: number, @Ctx() { ctx, services }: GraphQLContext): Promise<BlacklistEntryGql[]> {
    return services.blacklist.list(ctx, last);
  }

  @Mutation(() => BlacklistEntryGql, { description: 'Stops or pauses an account; staff of its platform only' })
  blacklistAccount(
    @Arg('accountId', () => String) accountId: string,
    @Arg('state', () => String, { description: 'stopped or paused' }) state: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<BlacklistEntryGql> {
    return services.blacklist.put(ctx, { accountId, state });
  }

  @Mutation(() => Boolean, { description: 'Takes an account off the blacklist; staff of its platform only' })
  async unblacklistAccount(@Arg('accountId', () => String) accountId: string, @Ctx() { ctx, services }: GraphQLContext): Promise<boolean> {
    await services.blacklist.remove(ctx, accountId);
    return true;
  }
}
