import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { MAX_PAGE_SIZE } from '../../core/page';
import type { GraphQLContext } from '../../graphql/context';
import { payloadOf } from '../../graphql/user-errors';
import type { ResultCodec } from '../idempotency';
import {
  AddStarInput,
  AddStarPayloadGql,
  CallbackGql,
  callbackGql,
  RemoveStarInput,
  RemoveStarPayloadGql,
  WatchlistEntryGql,
  watchlistEntryGql,
} from './watchlist.types';

type Added = Omit<AddStarPayloadGql, 'userErrors'>;
type Removed = Omit<RemoveStarPayloadGql, 'userErrors'>;

/** Results kept as they are: their values are JSON already. */
const asJson = <T>(): ResultCodec<T> => ({ store: (result) => result, load: (stored) => stored as T });

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
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'addStar', input: { accountId, lotId } }, asJson<Added>(), async () => ({
        watchlistEntry: watchlistEntryGql(await services.watchlist.star(ctx, { accountId, lotId })),
      })),
    );
  }

  @Mutation(() => RemoveStarPayloadGql, { description: "Takes a lot off an account's watchlist; a refusal is answered in userErrors" })
  async removeStar(@Arg('input', () => RemoveStarInput) input: RemoveStarInput, @Ctx() { ctx, services }: GraphQLContext): Promise<RemoveStarPayloadGql> {
    const { idempotencyKey, accountId, lotId } = input;
    return payloadOf<Removed>({ lotId: null, accountId: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'removeStar', input: { accountId, lotId } }, asJson<Removed>(), async () => {
        await services.watchlist.unstar(ctx, { accountId, lotId });
        return { lotId, accountId };
      }),
    );
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
