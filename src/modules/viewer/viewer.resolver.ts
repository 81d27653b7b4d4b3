import type { GraphQLResolveInfo } from 'graphql';
import { Args, Ctx, Extensions, FieldResolver, Info, Query, Resolver, Root } from 'type-graphql';
import { ConnectionArgs, connectionOfWindow, pageWindow, type ConnectionSource } from '../../graphql/types/connection';
import type { GraphQLContext } from '../../graphql/context';
import { notFound } from '../../core/errors';
import { registerNode } from '../../graphql/types/node';
import { runsOwnStatement, runsStatement } from '../../graphql/statement-cost';
import type { Source } from '../../graphql/source';
import { accountGql } from '../accounts';
import { LotConnectionGql, lotConnection, type LotGql } from '../lots';
import { type NotificationGql, notificationGql } from '../notifications';
import { type ParticipationGql, participationGql } from '../trading';
import { type WatchlistEntryGql, watchlistEntryGql } from '../watchlist';
import { type SavedSearchGql, savedSearchGql } from '../searches';
import { ViewerGql, ViewerNotificationConnectionGql, ViewerParticipationConnectionGql, ViewerSavedSearchConnectionGql, ViewerWatchlistConnectionGql } from './viewer.types';

/**
 * A participation refetched by id: the viewer's own only, as `viewer.participations` lists them,
 * with whether it leads as the list says it; any other is answered as no participant (also one
 * of another account on a lot where the viewer has its own, which the lot's standing would give).
 */
registerNode('Participation', async (id, { ctx, services, loaders }) => {
  const participant = await services.lotRelations.visibleParticipant(ctx, id);
  const standing = participant.accountId === ctx.caller?.accountId ? await loaders.viewerStanding.load(participant.lotId) : null;
  if (!standing) throw notFound('participant_not_found', 'no such participant');
  return participationGql(standing);
});

/** The signed-in account as `viewer` answers it (unauthenticated without a caller). */
async function viewerOf({ ctx, services }: GraphQLContext): Promise<ViewerGql> {
  const account = await services.accounts.me(ctx);
  return { id: account.id, account: accountGql(account, 'full') };
}

// The viewer is the caller itself: another account's viewer is no viewer, whoever asks.
registerNode('Viewer', async (id, context) => {
  const viewer = await viewerOf(context);
  if (viewer.id !== id) throw notFound('viewer_not_found', 'no such viewer');
  return viewer;
});

/**
 * `viewer`: the signed-in account's dashboard in one request. Each list is the caller's own, read
 * by the service that owns it as the REST route of the same list reads it.
 */
@Resolver(() => ViewerGql)
export class ViewerResolver {
  @Extensions(runsStatement())
  @Query(() => ViewerGql, { description: 'The signed-in account (authentication required)' })
  viewer(@Ctx() context: GraphQLContext): Promise<ViewerGql> {
    return viewerOf(context);
  }

  @Extensions(runsStatement())
  @FieldResolver(() => ViewerParticipationConnectionGql, { description: 'The lots the viewer takes part in, newest first, each saying whether its bid leads' })
  async participations(@Args() page: ConnectionArgs, @Ctx() { ctx, services }: GraphQLContext, @Info() info: GraphQLResolveInfo): Promise<ConnectionSource<ParticipationGql>> {
    const window = pageWindow(page, 'Viewer.participations', info);
    return connectionOfWindow(window, await services.participation.standingsWindowOfCaller(ctx, window), (items) => items.map(participationGql));
  }

  @Extensions(runsStatement())
  @FieldResolver(() => ViewerWatchlistConnectionGql, { description: "The lots of the viewer's watchlist, newest first" })
  async watchlist(@Root() viewer: Source<ViewerGql>, @Args() page: ConnectionArgs, @Ctx() { ctx, services }: GraphQLContext, @Info() info: GraphQLResolveInfo): Promise<ConnectionSource<WatchlistEntryGql>> {
    const window = pageWindow(page, 'Viewer.watchlist', info);
    return connectionOfWindow(window, await services.watchlist.window(ctx, viewer.id, window), (items) => items.map(watchlistEntryGql));
  }

  @Extensions(runsOwnStatement())
  @FieldResolver(() => LotConnectionGql, { description: 'The lots the viewer won (a winner or buy-now winner), newest start first: 15 without `first` or `last`' })
  wonLots(@Args() page: ConnectionArgs, @Ctx() context: GraphQLContext, @Info() info: GraphQLResolveInfo): Promise<ConnectionSource<LotGql>> {
    return lotConnection(context, info, 'Viewer.wonLots', page, { filter: { tab: 'won' } });
  }

  @Extensions(runsOwnStatement())
  @FieldResolver(() => LotConnectionGql, { description: 'The lots the viewer organized, newest start first: 15 without `first` or `last`' })
  organizedLots(@Root() viewer: Source<ViewerGql>, @Args() page: ConnectionArgs, @Ctx() context: GraphQLContext, @Info() info: GraphQLResolveInfo): Promise<ConnectionSource<LotGql>> {
    return lotConnection(context, info, 'Viewer.organizedLots', page, { filter: { organizer: viewer.id } });
  }

  @Extensions(runsStatement())
  @FieldResolver(() => ViewerNotificationConnectionGql, { description: "The viewer's unread notifications, newest first" })
  async notifications(@Args() page: ConnectionArgs, @Ctx() { ctx, services }: GraphQLContext, @Info() info: GraphQLResolveInfo): Promise<ConnectionSource<NotificationGql>> {
    const window = pageWindow(page, 'Viewer.notifications', info);
    return connectionOfWindow(window, await services.notifications.unreadWindow(ctx, window), (items) => items.map(notificationGql));
  }

  @Extensions(runsStatement())
  @FieldResolver(() => ViewerSavedSearchConnectionGql, { description: "The viewer's saved searches, newest first" })
  async savedSearches(@Args() page: ConnectionArgs, @Ctx() { ctx, services }: GraphQLContext, @Info() info: GraphQLResolveInfo): Promise<ConnectionSource<SavedSearchGql>> {
    const window = pageWindow(page, 'Viewer.savedSearches', info);
    return connectionOfWindow(window, await services.searches.window(ctx, window), (items) => items.map(savedSearchGql));
  }
}
