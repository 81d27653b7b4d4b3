import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Ctx, Extensions, FieldResolver, Info, Int, Query, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { runsOwnStatement } from '../../graphql/statement-cost';
import type { Source } from '../../graphql/source';
import { accountGql } from '../accounts';
import { LotConnectionGql, lotConnection } from '../lots';
import { NotificationGql, notificationGql } from '../notifications';
import { ParticipationGql, participationGql } from '../trading';
import { WatchlistEntryGql, watchlistEntryGql } from '../watchlist';
import { ViewerGql } from './viewer.types';

/** What a page of the dashboard shows when `first` is not given. */
const FIRST = 15;

/**
 * `viewer`: the signed-in account's dashboard in one request. Each list is the caller's own, read
 * by the service that owns it as the REST route of the same list reads it.
 */
@Resolver(() => ViewerGql)
export class ViewerResolver {
  @Query(() => ViewerGql, { description: 'The signed-in account (authentication required)' })
  async viewer(@Ctx() { ctx, services }: GraphQLContext): Promise<ViewerGql> {
    const account = await services.accounts.me(ctx);
    return { id: account.id, account: accountGql(account, 'full') };
  }

  @FieldResolver(() => [ParticipationGql], { description: 'The newest `first` lots the viewer takes part in (by default and at most 100), newest first, each saying whether its bid leads' })
  async participations(@Arg('first', () => Int, { nullable: true }) first: number | undefined, @Ctx() { ctx, services }: GraphQLContext): Promise<ParticipationGql[]> {
    return (await services.participation.standingsOfCaller(ctx, first ?? undefined)).map(participationGql);
  }

  @FieldResolver(() => [WatchlistEntryGql], { description: "The newest `first` lots of the viewer's watchlist (by default and at most 100), newest first" })
  async watchlist(@Root() viewer: Source<ViewerGql>, @Arg('first', () => Int, { nullable: true }) first: number | undefined, @Ctx() { ctx, services }: GraphQLContext): Promise<WatchlistEntryGql[]> {
    return (await services.watchlist.list(ctx, { accountId: viewer.id, limit: first ?? undefined })).map(watchlistEntryGql);
  }

  @Extensions(runsOwnStatement())
  @FieldResolver(() => LotConnectionGql, { description: 'The lots the viewer won (a winner or buy-now winner), a page of `first` (15 by default, at most 100) from `after`' })
  wonLots(
    @Arg('first', () => Int, { defaultValue: FIRST }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | undefined,
    @Ctx() context: GraphQLContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<LotConnectionGql> {
    return lotConnection(context, info, { filter: { tab: 'won' }, page: { cursor: after ?? undefined, limit: first } });
  }

  @Extensions(runsOwnStatement())
  @FieldResolver(() => LotConnectionGql, { description: 'The lots the viewer organized, a page of `first` (15 by default, at most 100) from `after`' })
  organizedLots(
    @Root() viewer: Source<ViewerGql>,
    @Arg('first', () => Int, { defaultValue: FIRST }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | undefined,
    @Ctx() context: GraphQLContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<LotConnectionGql> {
    return lotConnection(context, info, { filter: { organizer: viewer.id }, page: { cursor: after ?? undefined, limit: first } });
  }

  @FieldResolver(() => [NotificationGql], { description: "The viewer's newest `first` unread notifications (15 by default, at most 100), newest first" })
  async notifications(@Arg('first', () => Int, { defaultValue: FIRST }) first: number, @Ctx() { ctx, services }: GraphQLContext): Promise<NotificationGql[]> {
    return (await services.notifications.list(ctx, { size: first })).items.map(notificationGql);
  }
}
