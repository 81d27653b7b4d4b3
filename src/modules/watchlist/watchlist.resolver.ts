import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Extensions, Info, Int, Mutation, Query, Resolver } from 'type-graphql';
import { MAX_PAGE_SIZE } from '../../core/page';
import { notFound } from '../../core/errors';
import type { GraphQLContext } from '../../graphql/context';
import { registerNode } from '../../graphql/types/node';
import { ConnectionArgs, connectionOfWindow, pageWindow, type ConnectionSource } from '../../graphql/types/connection';
import { payloadOf } from '../../graphql/user-errors';
import { asStored } from '../idempotency';
import {
  AddCallbackRequestInput,
  AddCallbackRequestPayloadGql,
  AddStarInput,
  AddStarPayloadGql,
  CallbackGql,
  callbackGql,
  RemoveCallbackRequestInput,
  RemoveCallbackRequestPayloadGql,
  RemoveStarInput,
  RemoveStarPayloadGql,
  WatchlistEntryGql,
  watchlistEntryGql,
} from './watchlist.types';
import { WatchlistEntryConnectionGql } from './watchlist.connection.types';
import { runsStatement } from '../../graphql/statement-cost';

// The callback a mutation answered, refetched as its lot's `callbacks` shows it (the same row as a `LotCallback`).
registerNode('Callback', async (id, { loaders }) => {
  const callback = await loaders.callback.load(id);
  if (!callback) throw notFound('callback_not_found', 'no such callback request');
  return callbackGql(callback);
});

type Added = Omit<AddStarPayloadGql, 'userErrors'>;
type Removed = Omit<RemoveStarPayloadGql, 'userErrors'>;
type CallbackAdded = Omit<AddCallbackRequestPayloadGql, 'userErrors'>;
type CallbackRemoved = Omit<RemoveCallbackRequestPayloadGql, 'userErrors'>;

@Resolver()
export class WatchlistResolver {
  @Extensions(runsStatement())
  @Query(() => [WatchlistEntryGql], {
    nullable: true,
    description: "An account's watchlist, the newest `limit` first; the account itself or staff of its platform",
    deprecationReason: 'Use `watchlistConnection`',
  })
  async watchlist(
    @Arg('accountId', () => String) accountId: string,
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('limit', () => Int, { defaultValue: MAX_PAGE_SIZE, description: '1 to 100; 100 by default' }) limit?: number,
  ): Promise<WatchlistEntryGql[]> {
    return (await services.watchlist.list(ctx, { accountId, limit })).map(watchlistEntryGql);
  }

  @Extensions(runsStatement())
  @Query(() => WatchlistEntryConnectionGql, { description: "An account's watchlist, newest first; the account itself or staff of its platform" })
  async watchlistConnection(
    @Arg('accountId', () => String) accountId: string,
    @Args(() => ConnectionArgs) page: ConnectionArgs,
    @Info() info: GraphQLResolveInfo,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<ConnectionSource<WatchlistEntryGql>> {
    const window = pageWindow(page, `Account:${accountId}.watchlist`, info);
    return connectionOfWindow(window, await services.watchlist.window(ctx, accountId, window), (items) => items.map(watchlistEntryGql));
  }

  @Mutation(() => WatchlistEntryGql, { description: 'POST /accounts/{id}/stars: adds a lot to the watchlist', deprecationReason: 'Use addStar' })
  async starLot(
    @Arg('accountId', () => String) accountId: string,
    @Arg('lotId', () => String) lotId: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<WatchlistEntryGql> {
    return watchlistEntryGql(await services.watchlist.star(ctx, { accountId, lotId }));
  }

  @Mutation(() => Boolean, { description: 'DELETE /accounts/{id}/stars/{lot-id}: takes a lot off the watchlist', deprecationReason: 'Use removeStar' })
  async unstarLot(
    @Arg('accountId', () => String) accountId: string,
    @Arg('lotId', () => String) lotId: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<boolean> {
    await services.watchlist.unstar(ctx, { accountId, lotId });
    return true;
  }

  @Mutation(() => AddStarPayloadGql, { description: "Adds a lot to an account's watchlist; a refusal is answered in userErrors" })
  async addStar(@Arg('input', () => AddStarInput) input: AddStarInput, @Ctx() { ctx, services }: GraphQLContext): Promise<AddStarPayloadGql> {
    const { idempotencyKey, accountId, lotId } = input;
    return payloadOf<Added>({ watchlistEntry: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'addStar', input: { accountId, lotId } }, asStored<Added>(), async () => ({
        watchlistEntry: watchlistEntryGql(await services.watchlist.star(ctx, { accountId, lotId })),
      })),
    );
  }

  @Mutation(() => RemoveStarPayloadGql, { description: "Takes a lot off an account's watchlist; a refusal is answered in userErrors" })
  async removeStar(@Arg('input', () => RemoveStarInput) input: RemoveStarInput, @Ctx() { ctx, services }: GraphQLContext): Promise<RemoveStarPayloadGql> {
    const { idempotencyKey, accountId, lotId } = input;
    return payloadOf<Removed>({ lotId: null, accountId: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'removeStar', input: { accountId, lotId } }, asStored<Removed>(), async () => {
        await services.watchlist.unstar(ctx, { accountId, lotId });
        return { lotId, accountId };
      }),
    );
  }

  @Mutation(() => CallbackGql, { description: 'POST /lots/{id}/callbacks: the caller asks to be called back about the lot', deprecationReason: 'Use addCallbackRequest' })
  async requestCallback(@Arg('lotId', () => String) lotId: string, @Ctx() { ctx, services }: GraphQLContext): Promise<CallbackGql> {
    return callbackGql(await services.watchlist.requestCallback(ctx, { lotId }));
  }

  @Mutation(() => Boolean, { description: "DELETE /lots/{id}/callbacks/{account-id}: the requester, the lot's organizer or staff of its publisher", deprecationReason: 'Use removeCallbackRequest' })
  async deleteCallback(
    @Arg('lotId', () => String) lotId: string,
    @Arg('accountId', () => String) accountId: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<boolean> {
    await services.watchlist.deleteCallback(ctx, { lotId, accountId });
    return true;
  }

  @Mutation(() => AddCallbackRequestPayloadGql, { description: 'The caller asks to be called back about the lot; a refusal is answered in userErrors' })
  async addCallbackRequest(@Arg('input', () => AddCallbackRequestInput) input: AddCallbackRequestInput, @Ctx() { ctx, services }: GraphQLContext): Promise<AddCallbackRequestPayloadGql> {
    const { idempotencyKey, lotId } = input;
    return payloadOf<CallbackAdded>({ callback: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'addCallbackRequest', input: { lotId } }, asStored<CallbackAdded>(), async () => ({
        callback: callbackGql(await services.watchlist.requestCallback(ctx, { lotId })),
      })),
    );
  }

  @Mutation(() => RemoveCallbackRequestPayloadGql, { description: "Takes back a callback request: the requester, the lot's organizer or staff of its publisher; a refusal is answered in userErrors" })
  async removeCallbackRequest(
    @Arg('input', () => RemoveCallbackRequestInput) input: RemoveCallbackRequestInput,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<RemoveCallbackRequestPayloadGql> {
    const { idempotencyKey, lotId, accountId } = input;
    return payloadOf<CallbackRemoved>({ lotId: null, accountId: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'removeCallbackRequest', input: { lotId, accountId } }, asStored<CallbackRemoved>(), async () => {
        await services.watchlist.deleteCallback(ctx, { lotId, accountId });
        return { lotId, accountId };
      }),
    );
  }
}
