import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Extensions, Info, Int, Mutation, Query, Resolver } from 'type-graphql';
import { ConnectionArgs, connectionOfWindow, pageWindow, type ConnectionSource } from '../../graphql/types/connection';
import { BlacklistEntryConnectionGql } from './blacklist.connection.types';
import { MAX_PAGE_SIZE } from '../../core/page';
import type { GraphQLContext } from '../../graphql/context';
import { payloadOf } from '../../graphql/user-errors';
import { asStored } from '../idempotency';
import { AddBlacklistEntryInput, AddBlacklistEntryPayloadGql, BlacklistEntryGql, RemoveBlacklistEntryInput, RemoveBlacklistEntryPayloadGql } from './blacklist.types';
import { runsStatement } from '../../graphql/statement-cost';

type Added = Omit<AddBlacklistEntryPayloadGql, 'userErrors'>;
type Removed = Omit<RemoveBlacklistEntryPayloadGql, 'userErrors'>;

@Resolver()
export class BlacklistResolver {
  @Extensions(runsStatement())
  @Query(() => [BlacklistEntryGql], {
    description: "The newest `last` blacklisted accounts of the caller's platforms (by default and at most 100), oldest first; staff only",
    deprecationReason: 'Use `blacklistConnection`',
  })
  blacklist(@Arg('last', () => Int, { defaultValue: MAX_PAGE_SIZE }) last: number, @Ctx() { ctx, services }: GraphQLContext): Promise<BlacklistEntryGql[]> {
    return services.blacklist.list(ctx, last);
  }

  @Extensions(runsStatement())
  @Query(() => BlacklistEntryConnectionGql, { description: "The blacklisted accounts of the caller's platforms, oldest first (`last` pages back from the newest); staff only" })
  async blacklistConnection(@Args() page: ConnectionArgs, @Ctx() { ctx, services }: GraphQLContext, @Info() info: GraphQLResolveInfo): Promise<ConnectionSource<BlacklistEntryGql>> {
    const window = pageWindow(page, 'Query.blacklistConnection', info);
    return connectionOfWindow(window, await services.blacklist.window(ctx, window), (items) => items);
  }

  @Mutation(() => BlacklistEntryGql, { description: 'Stops or pauses an account; staff of its platform only', deprecationReason: 'Use addBlacklistEntry' })
  blacklistAccount(
    @Arg('accountId', () => String) accountId: string,
    @Arg('state', () => String, { description: 'stopped or paused' }) state: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<BlacklistEntryGql> {
    return services.blacklist.put(ctx, { accountId, state });
  }

  @Mutation(() => Boolean, { description: 'Takes an account off the blacklist; staff of its platform only', deprecationReason: 'Use removeBlacklistEntry' })
  async unblacklistAccount(@Arg('accountId', () => String) accountId: string, @Ctx() { ctx, services }: GraphQLContext): Promise<boolean> {
    await services.blacklist.remove(ctx, accountId);
    return true;
  }

  @Mutation(() => AddBlacklistEntryPayloadGql, { description: 'Stops or pauses an account; staff of its platform only; a refusal is answered in userErrors' })
  async addBlacklistEntry(@Arg('input', () => AddBlacklistEntryInput) input: AddBlacklistEntryInput, @Ctx() { ctx, services }: GraphQLContext): Promise<AddBlacklistEntryPayloadGql> {
    const { idempotencyKey, accountId, state } = input;
    return payloadOf<Added>({ blacklistEntry: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'addBlacklistEntry', input: { accountId, state } }, asStored<Added>(), async () => ({
        blacklistEntry: await services.blacklist.put(ctx, { accountId, state }),
      })),
    );
  }

  @Mutation(() => RemoveBlacklistEntryPayloadGql, { description: 'Takes an account off the blacklist; staff of its platform only; a refusal is answered in userErrors' })
  async removeBlacklistEntry(@Arg('input', () => RemoveBlacklistEntryInput) input: RemoveBlacklistEntryInput, @Ctx() { ctx, services }: GraphQLContext): Promise<RemoveBlacklistEntryPayloadGql> {
    const { idempotencyKey, accountId } = input;
    return payloadOf<Removed>({ accountId: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'removeBlacklistEntry', input: { accountId } }, asStored<Removed>(), async () => {
        await services.blacklist.remove(ctx, accountId);
        return { accountId };
      }),
    );
  }
}
