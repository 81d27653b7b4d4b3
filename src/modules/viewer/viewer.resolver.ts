import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Extensions, FieldResolver, Info, Int, Query, Resolver, Root } from 'type-graphql';
import { ConnectionArgs, connectionOfWindow, pageWindow, type ConnectionSource } from '../../graphql/types/connection';
import type { GraphQLContext } from '../../graphql/context';
import { runsOwnStatement } from '../../graphql/statement-cost';
import type { Source } from '../../graphql/source';
import { accountGql } from '../accounts';
import { LotConnectionGql, lotConnection } from '../lots';
import { type NotificationGql, notificationGql } from '../notifications';
import { type ParticipationGql, participationGql } from '../trading';
import { type WatchlistEntryGql, watchlistEntryGql } from '../watchlist';
import { ViewerGql, ViewerNotificationConnectionGql, ViewerParticipationConnectionGql, ViewerWatchlistConnectionGql } from './viewer.types';

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

  @FieldResolver(() => ViewerParticipationConnectionGql, { description: 'The lots the viewer takes part in, newest first, each saying whether its bid leads' })
  async participations(@Args() page: ConnectionArgs, @Ctx() { ctx, services }: GraphQLContext): Promise<ConnectionSource<ParticipationGql>> {
    const window = pageWindow(page, 'Viewer.participations');
    return connectionOfWindow(window, await services.participation.standingsWindowOfCaller(ctx, window), (items) => items.map(participationGql));
  }

  @FieldResolver(() => ViewerWatchlistConnectionGql, { description: "The lots of the viewer's watchlist, newest first" })
  async watchlist(@Root() viewer: Source<ViewerGql>, @Args() page: ConnectionArgs, @Ctx() { ctx, services }: GraphQLContext): Promise<ConnectionSource<WatchlistEntryGql>> {
    const window = pageWindow(page, 'Viewer.watchlist');
    return connectionOfWindow(window, await services.watchlist.window(ctx, viewer.id, window), (items) => items.map(watchlistEntryGql));
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

  @FieldResolver(() => ViewerNotificationConnectionGql, { description: "The viewer's unread notifications, newest first" })
  async notifications(@Args() page: ConnectionArgs, @Ctx() { ctx, services }: GraphQLContext): Promise<ConnectionSource<NotificationGql>> {
    const window = pageWindow(page, 'Viewer.notifications');
    return connectionOfWindow(window, await services.notifications.unreadWindow(ctx, window), (items) => items.map(notificationGql));
  }
}
