import { Arg, Ctx, Extensions, FieldResolver, ID, Resolver, Root, Subscription } from 'type-graphql';
import type { Source } from '../../graphql/source';
import { ParticipationGql, participationGql } from '../trading';
import { notFound } from '../../core/errors';
import type { GraphQLContext } from '../../graphql/context';
import { registerNode } from '../../graphql/types/node';
import { CONTEXT_FREE } from '../../live/context-free';
import { itemsPerArgument } from '../../graphql/list-items';
import type { NotificationEvent } from '../../live/live.topics';
import { type LotsView, LotGql } from '../lots';
import { NotificationGql, notificationGql } from '../notifications';
import type { BidView, ViewerChange } from './live.feeds';
import { BidEventGql, bidEventGql, ViewerChangeGql } from './live.types';
import { readsThroughLoader } from '../../graphql/statement-cost';

// A bid event refetched is the bid as a replay of `bidPlaced` yields it to the caller.
registerNode('BidEvent', async (id, { loaders }) => {
  const bid = await loaders.bidEvent.load(id);
  if (!bid) throw notFound('bid_not_found', 'no such bid');
  return bidEventGql(bid);
});

interface Subscribed<A> {
  args: A;
  context: GraphQLContext;
}

/**
 * The subscriptions, over graphql-ws on /graphql. Each brings its own
 * `subscribe`, a stream built by LiveFeeds; the methods shape one event and read nothing else.
 * Each event of a subscription that is not context-free executes with a context of its own
 * (LiveFanout), so nested fields read through fresh loaders without anyone resetting them.
 */
@Resolver()
export class LiveResolver {
  @Extensions(CONTEXT_FREE)
  @Subscription(() => BidEventGql, {
    description: 'Every accepted bid on the lot; with `after` (a bid id), first the bids placed after that one',
    subscribe: ({ args, context }: Subscribed<{ lotId: string; after?: string | null }>) => context.services.feeds.bids(context.ctx, args.lotId, args.after),
  })
  bidPlaced(
    @Root() bid: BidView,
    @Arg('lotId', () => ID) _lotId: string,
    @Arg('after', () => ID, { nullable: true }) _after?: string,
  ): BidEventGql {
    return bidEventGql(bid);
  }

  @Subscription(() => LotGql, {
    description: 'The lot after each change of its state, highest bid, winner, times or winner details; changes that come while the lot is read are shown together, by the next read',
    subscribe: ({ args, context }: Subscribed<{ lotId: string }>) => context.services.feeds.lot(context.ctx, args.lotId),
  })
  lotUpdated(@Root() view: LotsView, @Arg('lotId', () => ID) _lotId: string, @Ctx() { ctx, services }: GraphQLContext): LotGql {
    return services.lots.views(ctx, view)[0];
  }

  @Extensions(itemsPerArgument('ids'))
  @Subscription(() => LotGql, {
    description: 'Each of the lots (1 to 100 ids) after each change of its state, highest bid, winner, times or winner details (changes that come while a lot is read are shown together, by the next read); the selection costs once per lot',
    subscribe: ({ args, context }: Subscribed<{ ids: string[] }>) => context.services.feeds.lotsChanged(context.ctx, args.ids),
  })
  lotsUpdated(@Root() view: LotsView, @Arg('ids', () => [ID]) _ids: string[], @Ctx() { ctx, services }: GraphQLContext): LotGql {
    return services.lots.views(ctx, view)[0];
  }

  @Subscription(() => BidEventGql, {
    description: "Every accepted bid on the lots the platform publishes, bidders named; for staff of the platform alone",
    subscribe: ({ args, context }: Subscribed<{ platformId: string }>) => context.services.feeds.platformBids(context.ctx, args.platformId),
  })
  platformActivity(@Root() bid: BidView, @Arg('platformId', () => String) _platformId: string): BidEventGql {
    return bidEventGql(bid);
  }

  @Subscription(() => ViewerChangeGql, {
    description: "The changes of the viewer's participations: outbid, leading, won, extended, each with the lot (authentication required)",
    subscribe: ({ context }: Subscribed<object>) => context.services.feeds.viewerChanges(context.ctx),
  })
  viewerUpdated(@Root() change: ViewerChange): ViewerChangeGql {
    return change;
  }

  @Subscription(() => NotificationGql, {
    description: "The caller's own notifications as they are created (authentication required)",
    subscribe: ({ context }: Subscribed<object>) => context.services.feeds.notifications(context.ctx),
  })
  notificationAdded(@Root() n: NotificationEvent): NotificationGql {
    return notificationGql(n);
  }

  @Subscription(() => NotificationGql, {
    description: "The caller's saved_search_matched notifications: a new lot matched one of its saved searches, or a lot's price fell under one's price max (authentication required)",
    subscribe: ({ context }: Subscribed<object>) => context.services.feeds.savedSearchMatches(context.ctx),
  })
  savedSearchMatched(@Root() n: NotificationEvent): NotificationGql {
    return notificationGql(n);
  }
}

/** The lot and the participation a change of `viewerUpdated` is about, read when the event is executed. */
@Resolver(() => ViewerChangeGql)
export class ViewerChangeResolver {
  @Extensions(readsThroughLoader())
  @FieldResolver(() => LotGql, { description: 'The lot as it is now, prices in its own currency' })
  async lot(@Root() change: Source<ViewerChangeGql>, @Ctx() { loaders }: GraphQLContext): Promise<LotGql> {
    return (await loaders.lot.load(change.lotId)) as LotGql;
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => ParticipationGql, { nullable: true, description: "The viewer's participation in the lot as it is now" })
  async participation(@Root() change: Source<ViewerChangeGql>, @Ctx() { loaders }: GraphQLContext): Promise<ParticipationGql | null> {
    const standing = await loaders.viewerStanding.load(change.lotId);
    return standing && participationGql(standing);
  }
}
