import { Arg, Ctx, Mutation, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { CallbackGql, callbackGql, WatchlistEntryGql, watchlistEntryGql } from './watchlist.types';

@Resolver()
export class WatchlistResolver {
  @Query(() => [WatchlistEntryGql], { description: "An account's watchlist, newest first; the account itself or staff of its platform" })
  async watchlist(@Arg('accountId', () => String) accountId: string, @Ctx() { rc, services }: GraphQLContext): Promise<WatchlistEntryGql[]> {
    return (await services.watchlist.list(rc, { accountId })).map(watchlistEntryGql);
  }

  @Mutation(() => WatchlistEntryGql, { description: 'POST /accounts/{id}/stars: adds a lot to the watchlist' })
  async starLot(
    @Arg('accountId', () => String) accountId: string,
    @Arg('lotId', () => String) lotId: string,
    @Ctx() { rc, services }: GraphQLContext,
  ): Promise<WatchlistEntryGql> {
    return watchlistEntryGql(await services.watchlist.star(rc, { accountId, lotId }));
  }

  @Mutation(() => Boolean, { description: 'DELETE /accounts/{id}/stars/{lot-id}: takes a lot off the watchlist' })
  async unstarLot(
    @Arg('accountId', () => String) accountId: string,
    @Arg('lotId', () => String) lotId: string,
    @Ctx() { rc, services }: GraphQLContext,
  ): Promise<boolean> {
    await services.watchlist.unstar(rc, { accountId, lotId });
    return true;
  }

  @Mutation(() => CallbackGql, { description: 'POST /lots/{id}/callbacks: the caller asks to be called back about the lot' })
  async requestCallback(@Arg('lotId', () => String) lotId: string, @Ctx() { rc, services }: GraphQLContext): Promise<CallbackGql> {
    return callbackGql(await services.watchlist.requestCallback(rc, { lotId }));
  }

  @Mutation(() => Boolean, { description: "DELETE /lots/{id}/callbacks/{account-id}: the requester, the lot's organizer or staff of its publisher" })
  async deleteCallback(
    @Arg('lotId', () => String) lotId: string,
    @Arg('accountId', () => String) accountId: string,
    @Ctx() { rc, services }: GraphQLContext,
  ): Promise<boolean> {
    await services.watchlist.deleteCallback(rc, { lotId, accountId });
    return true;
  }
}
