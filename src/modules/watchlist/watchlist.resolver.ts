import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { MAX_PAGE_SIZE } from '../../core/page';
import type { GraphQLContext } from '../../graphql/context';
import { CallbackGql, callbackGql, WatchlistEntryGql, watchlistEntryGql } from './watchlist.types';

@Resolver()
export class WatchlistResolver {
  @Query(() => [WatchlistEntryGql], { nullable: true, description: "An account's watchlist, the newest `limit` first; the account itself or staff of its platform" })
  async watchlist(
    @Arg('accountId', () => String) accountId: string,
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('limit', () => Int, { defaultValue: MAX_PAGE_SIZE, description: '1 to 100; 100 by default' }) limit?: number,
  ): Promise<WatchlistEntryGql[]> {
    return (await services.watchlist.list(ctx, { accountId, limit })).map(watchlistEntryGql);
  }

  @Mutation(() => WatchlistEntryGql, { description: 'POST /accounts/{id}/stars: adds a lot to the watchlist' })
  async starLot(
    @Arg('accountId', () => String) accountId: string,
    @Arg('lotId', () => String) lotId: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<WatchlistEntryGql> {
    return watchlistEntryGql(await services.watchlist.star(ctx, { accountId, lotId }));
  }

  @Mutation(() => Boolean, { description: 'DELETE /accounts/{id}/stars/{lot-id}: takes a lot off the watchlist' })
  async unstarLot(
    @Arg('accountId', () => String) accountId: string,
    @Arg('lotId', () => String) lotId: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<boolean> {
    await services.watchlist.unstar(ctx, { accountId, lotId });
    return true;
  }

  @Mutation(() => CallbackGql, { description: 'POST /lots/{id}/callbacks: the caller asks to be called back about the lot' })
  async requestCallback(@Arg('lotId', () => String) lotId: string, @Ctx() { ctx, services }: GraphQLContext): Promise<CallbackGql> {
    return callbackGql(await services.watchlist.requestCallback(ctx, { lotId }));
  }

  @Mutation(() => Boolean, { description: "DELETE /lots/{id}/callbacks/{account-id}: the requester, the lot's organizer or staff of its publisher" })
  async deleteCallback(
    @Arg('lotId', () => String) lotId: string,
    @Arg('accountId', () => String) accountId: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<boolean> {
    await services.watchlist.deleteCallback(ctx, { lotId, accountId });
    return true;
  }
}
