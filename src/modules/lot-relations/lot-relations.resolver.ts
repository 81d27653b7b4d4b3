import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Extensions, FieldResolver, Info, Int, Resolver, Root } from 'type-graphql';
import { notFound } from '../../core/errors';
import type { ListWindow } from '../../core/list-window';
import { listBound } from '../../core/page';
import type { GraphQLContext } from '../../graphql/context';
import type { Source } from '../../graphql/source';
import { ConnectionArgs, connectionOfWindow, pageWindow, type ConnectionSource } from '../../graphql/types/connection';
import { registerNode } from '../../graphql/types/node';
import { bidGql, BidConnectionGql, BidGql } from '../bids';
import { LotCallbackConnectionGql, LotStarConnectionGql, ParticipantConnectionGql } from './lot-relations.connection.types';
import { LotCallbackGql, LotGql, LotStarGql } from '../lots';
import { depositGql, participantGql, winnerDetailsGql, DepositConnectionGql, DepositGql, ParticipantGql, WinnerDetailsGql } from '../trading';
import { readsThroughLoader } from '../../graphql/statement-cost';

/**
 * Bids a lot shows when `last` is not given: the most it shows at all, so that a client that asks
 * for the history gets it whole up to that bound, and the cost counts what may really come back.
 */
const BIDS_SHOWN = 100;
/** Participants, deposits, callbacks and stars a lot shows when `last` is not given, for the same reason. */
const ROWS_SHOWN = 100;

/**
 * The window of a deprecated list's newest `last` rows (read newest first, shown oldest first):
 * the lot's rows it does not show are not read. Bids and callbacks keep the rows a page of lots
 * embeds in its own statement.
 */
const newest = (last: number): ListWindow => ({ size: listBound(last, 'last'), fromEnd: false, after: null, before: null });

// A lot's rows refetched by id show what the lot's lists show the caller, and hide what they hide.
registerNode('Bid', async (id, { ctx, services }) => bidGql(await services.lotRelations.seenBid(ctx, id)));
registerNode('Participant', async (id, { ctx, services }) => participantGql(await services.lotRelations.visibleParticipant(ctx, id)));
registerNode('Deposit', async (id, { ctx, services }) => depositGql(await services.lotRelations.visibleDeposit(ctx, id)));
registerNode('LotCallback', async (id, { loaders }) => {
  const callback = await loaders.callback.load(id);
  if (!callback) throw notFound('callback_not_found', 'no such callback request');
  return callback;
});

/** The fields of a lot whose rows other areas own: read in the request's loaders, shown as the caller may see them. */
@Resolver(() => LotGql)
export class LotRelationsResolver {
  @Extensions(readsThroughLoader())
  @FieldResolver(() => [ParticipantGql], { description: 'The newest `last` participants the caller may see (by default and at most 100), oldest first', deprecationReason: 'Use `participantsConnection`' })
  async participants(
    @Root() lot: Source<LotGql>,
    @Arg('last', () => Int, { defaultValue: ROWS_SHOWN }) last: number,
    @Ctx() { loaders }: GraphQLContext,
  ): Promise<ParticipantGql[]> {
    return (await loaders.lotParticipantsWindow(newest(last)).load(lot.id)).items.reverse().map(participantGql);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => [DepositGql], { description: 'The newest `last` deposits the caller may see (by default and at most 100), oldest first', deprecationReason: 'Use `depositsConnection`' })
  async deposits(
    @Root() lot: Source<LotGql>,
    @Arg('last', () => Int, { defaultValue: ROWS_SHOWN }) last: number,
    @Ctx() { loaders }: GraphQLContext,
  ): Promise<DepositGql[]> {
    return (await loaders.lotDepositsWindow(newest(last)).load(lot.id)).items.reverse().map(depositGql);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => [LotCallbackGql], { description: 'The newest `last` callback requests the caller may see (by default and at most 100), oldest first', deprecationReason: 'Use `callbacksConnection`' })
  async callbacks(
    @Root() lot: Source<LotGql>,
    @Arg('last', () => Int, { defaultValue: ROWS_SHOWN }) last: number,
    @Ctx() { ctx, services, loaders }: GraphQLContext,
  ): Promise<LotCallbackGql[]> {
    return services.lots.recentVisibleRows(ctx, lot, await loaders.callbacks.load(lot.id), last);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => [LotStarGql], { description: 'The newest `last` stars the caller may see (by default and at most 100), oldest first', deprecationReason: 'Use `starsConnection`' })
  async stars(
    @Root() lot: Source<LotGql>,
    @Arg('last', () => Int, { defaultValue: ROWS_SHOWN }) last: number,
    @Ctx() { loaders }: GraphQLContext,
  ): Promise<LotStarGql[]> {
    return (await loaders.lotStarsWindow(newest(last)).load(lot.id)).items.reverse();
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => [BidGql], { description: 'The newest `last` bids of the history (by default and at most 100), oldest first', deprecationReason: 'Use `bidsConnection`' })
  async bids(
    @Root() lot: Source<LotGql>,
    @Arg('last', () => Int, { defaultValue: BIDS_SHOWN }) last: number,
    @Ctx() { ctx, services, loaders }: GraphQLContext,
  ): Promise<BidGql[]> {
    return services.lotRelations.recentBids(ctx, lot, await loaders.bids.load(lot.id), last).map(bidGql);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => WinnerDetailsGql, { nullable: true })
  async winnerDetails(@Root() lot: Source<LotGql>, @Ctx() { ctx, services, loaders }: GraphQLContext): Promise<WinnerDetailsGql | null> {
    const row = services.lots.shownWinnerDetails(ctx, lot, await loaders.winnerDetails.load(lot.id));
    return row && winnerDetailsGql(row);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => BidConnectionGql, { description: "The lot's bids, newest first, each naming its bidder only to those who may know it" })
  async bidsConnection(@Root() lot: Source<LotGql>, @Args(() => ConnectionArgs) page: ConnectionArgs, @Ctx() { ctx, services, loaders }: GraphQLContext, @Info() info: GraphQLResolveInfo): Promise<ConnectionSource<BidGql>> {
    const window = pageWindow(page, `Lot:${lot.id}.bids`, info);
    return connectionOfWindow(window, await loaders.lotBidsWindow(window).load(lot.id), (bids) => services.lotRelations.seenBids(ctx, lot, bids).map(bidGql));
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => ParticipantConnectionGql, { description: "The lot's participants the caller may see (all to its managers, else the caller's own), newest first" })
  async participantsConnection(@Root() lot: Source<LotGql>, @Args(() => ConnectionArgs) page: ConnectionArgs, @Ctx() { loaders }: GraphQLContext, @Info() info: GraphQLResolveInfo): Promise<ConnectionSource<ParticipantGql>> {
    const window = pageWindow(page, `Lot:${lot.id}.participants`, info);
    return connectionOfWindow(window, await loaders.lotParticipantsWindow(window).load(lot.id), (rows) => rows.map(participantGql));
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => DepositConnectionGql, { description: "The lot's deposits the caller may see (all to its managers, else the caller's own), newest first" })
  async depositsConnection(@Root() lot: Source<LotGql>, @Args(() => ConnectionArgs) page: ConnectionArgs, @Ctx() { loaders }: GraphQLContext, @Info() info: GraphQLResolveInfo): Promise<ConnectionSource<DepositGql>> {
    const window = pageWindow(page, `Lot:${lot.id}.deposits`, info);
    return connectionOfWindow(window, await loaders.lotDepositsWindow(window).load(lot.id), (rows) => rows.map(depositGql));
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => LotCallbackConnectionGql, { description: "The lot's callback requests the caller may see (all to its managers, else the caller's own), newest first" })
  async callbacksConnection(@Root() lot: Source<LotGql>, @Args(() => ConnectionArgs) page: ConnectionArgs, @Ctx() { loaders }: GraphQLContext, @Info() info: GraphQLResolveInfo): Promise<ConnectionSource<LotCallbackGql>> {
    const window = pageWindow(page, `Lot:${lot.id}.callbacks`, info);
    return connectionOfWindow(window, await loaders.lotCallbacksWindow(window).load(lot.id), (rows) => rows);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => LotStarConnectionGql, { description: "The accounts that star the lot, as the caller may see them (all to its managers, else the caller's own), newest first" })
  async starsConnection(@Root() lot: Source<LotGql>, @Args(() => ConnectionArgs) page: ConnectionArgs, @Ctx() { loaders }: GraphQLContext, @Info() info: GraphQLResolveInfo): Promise<ConnectionSource<LotStarGql>> {
    const window = pageWindow(page, `Lot:${lot.id}.stars`, info);
    return connectionOfWindow(window, await loaders.lotStarsWindow(window).load(lot.id), (rows) => rows);
  }
}
