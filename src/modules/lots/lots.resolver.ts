import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Extensions, Field, FieldResolver, ID, Info, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { withoutNulls, type Untrusted } from '../../core/validate';
import { fieldsUnder } from '../../graphql/selections';
import { embeddableOf } from './lots.embedded';
import { lotFilterOf } from './lots.filter.twins';
import type { LotPageInput } from './lots.input';
import type { GraphQLContext } from '../../graphql/context';
import { DEFAULT_PAGE_SIZE } from '../../core/page';
import { ConnectionArgs, connectionOfKeyset, keysetWindow, pageWindow, type ConnectionSource } from '../../graphql/types/connection';
import { runsOwnStatement } from '../../graphql/statement-cost';
import { registerNode } from '../../graphql/types/node';
import type { Source } from '../../graphql/source';
import { bidGql, BidGql } from '../bids';
import { AccountGql, shownAccount } from '../accounts';
import { depositGql, participantGql, winnerDetailsGql, DepositGql, ParticipantGql, WinnerDetailsGql } from '../trading';
import { CurrencyGql } from '../../graphql/types/money';
import { LotGroupByGql, lotsAggregateGql, LotsAggregateGql } from './lots.aggregate.types';
import type { LotGroup } from './lots.aggregate';
import { CreateLotInput, UpdateLotInput, LotCallbackGql, LotConnectionGql, LotFilterInput, LotGql, LotSortInput, LotStarGql } from './lots.types';

/**
 * A page of lots as a Relay connection (`lots`, the viewer's lists), 15 lots without `first` or
 * `last`: the relations asked for under `nodes` or `edges` are read by the page's own statement,
 * then found by the field resolvers in the request's loaders. `list` names the list its cursors
 * belong to; `totalCount` counts the filter's lots in a statement of its own, only when asked.
 */
export async function lotConnection(
  context: GraphQLContext,
  info: GraphQLResolveInfo,
  list: string,
  args: ConnectionArgs,
  input: Untrusted<Omit<LotPageInput, 'page'>>,
): Promise<ConnectionSource<LotGql>> {
  const { ctx, services, loaders } = context;
  const page = keysetWindow(pageWindow(args, list, DEFAULT_PAGE_SIZE));
  const embed = embeddableOf(new Set([...fieldsUnder(info, 'nodes'), ...fieldsUnder(info, 'edges', 'node')]));
  const view = await services.lots.index(ctx, { ...input, page }, embed);
  for (const [lotId, bids] of view.embedded?.bids ?? []) loaders.bids.prime(lotId, bids);
  for (const [lotId, callbacks] of view.embedded?.callbacks ?? []) loaders.callbacks.prime(lotId, callbacks);
  for (const [id, account] of view.embedded?.accounts ?? []) loaders.account.prime(id, services.accounts.shown(ctx, account));
  return connectionOfKeyset(list, view, services.lots.views(ctx, view), () => services.lots.count(ctx, { filter: input.filter }));
}

@ObjectType('CreateLotResult', { description: 'Staff create the lot; anyone else files a create_lot request' })
class CreateLotResultGql {
  @Field(() => ID, { nullable: true }) lotId!: string | null;
  @Field(() => ID, { nullable: true }) requestId!: string | null;
}

/**
 * Bids a lot shows when `last` is not given: the most it shows at all, so that a client that asks
 * for the history gets it whole up to that bound, and the cost counts what may really come back.
 */
const BIDS_SHOWN = 100;
/** Participants, deposits, callbacks and stars a lot shows when `last` is not given, for the same reason. */
const ROWS_SHOWN = 100;

async function lotById(id: string, currency: string | undefined, { ctx, services }: Pick<GraphQLContext, 'ctx' | 'services'>): Promise<LotGql> {
  return services.lots.views(ctx, await services.lots.get(ctx, { id, currency }))[0];
}
registerNode('Lot', (id, context) => lotById(id, undefined, context));
// A lot's rows refetched by id show what the lot's lists show the caller, and hide what they hide.
registerNode('Bid', async (id, { ctx, services }) => bidGql(await services.lots.seenBid(ctx, id)));
registerNode('Participant', async (id, { ctx, services }) => participantGql(await services.lots.visibleParticipant(ctx, id)));
registerNode('Deposit', async (id, { ctx, services }) => depositGql(await services.lots.visibleDeposit(ctx, id)));

@Resolver(() => LotGql)
export class LotsResolver {
  @Query(() => LotGql, { nullable: true })
  async lot(
    @Arg('id', () => ID) id: string,
    @Arg('currency', () => String, { nullable: true, deprecationReason: 'Use `Money.in` on the values under `prices`: converted by field, the lot keeps one identity' }) currency: string | undefined,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<LotGql> {
    return lotById(id, currency, { ctx, services });
  }

  @Query(() => LotConnectionGql, { description: 'The lots the filter finds, as the caller may see them: 15 without `first` or `last`' })
  @Extensions(runsOwnStatement())
  async lots(
    @Arg('filter', () => LotFilterInput, { nullable: true }) filter: LotFilterInput | undefined,
    @Arg('sort', () => LotSortInput, { nullable: true }) sort: LotSortInput | undefined,
    @Args() page: ConnectionArgs,
    @Ctx() context: GraphQLContext,
    @Info() info: GraphQLResolveInfo,
  ): Promise<ConnectionSource<LotGql>> {
    return lotConnection(context, info, 'Query.lots', page, { filter: lotFilterOf(filter), sort: sort ?? undefined });
  }

  @Query(() => Int)
  @Extensions(runsOwnStatement())
  lotsCount(@Arg('filter', () => LotFilterInput, { nullable: true }) filter: LotFilterInput | undefined, @Ctx() { ctx, services }: GraphQLContext): Promise<number> {
    return services.lots.count(ctx, { filter: lotFilterOf(filter) });
  }

  @Query(() => LotsAggregateGql, { description: 'The count and price sums of the lots `lots(filter:)` lists to the caller, in `currency` (the filter\'s, else USD), grouped by `groupBy`' })
  @Extensions(runsOwnStatement())
  async lotsAggregate(
    @Arg('filter', () => LotFilterInput, { nullable: true }) filter: LotFilterInput | undefined,
    @Arg('currency', () => CurrencyGql, { nullable: true }) currency: string | undefined,
    @Arg('groupBy', () => LotGroupByGql, { nullable: true }) groupBy: LotGroup | undefined,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<LotsAggregateGql> {
    return lotsAggregateGql(await services.lots.aggregate(ctx, { filter: lotFilterOf(filter), currency, groupBy }));
  }

  @Mutation(() => CreateLotResultGql)
  async createLot(@Arg('input', () => CreateLotInput) input: CreateLotInput, @Ctx() { ctx, services }: GraphQLContext): Promise<CreateLotResultGql> {
    const created = await services.lots.create(ctx, withoutNulls(input));
    return { lotId: created.lot?.id ?? null, requestId: created.request?.id ?? null };
  }

  @Mutation(() => LotGql, { description: "PATCH /lots/{id}: the lot's organizer or staff of its publisher change its reserve price before the first bid" })
  async updateLot(@Arg('id', () => ID) id: string, @Arg('input', () => UpdateLotInput) input: UpdateLotInput, @Ctx() { ctx, services }: GraphQLContext): Promise<LotGql> {
    return services.lots.views(ctx, await services.lots.update(ctx, { ...input, id }))[0];
  }

  @FieldResolver(() => AccountGql)
  organizer(@Root() lot: Source<LotGql>, @Ctx() context: GraphQLContext): Promise<AccountGql> {
    return shownAccount(context, lot.organizerId);
  }

  @FieldResolver(() => AccountGql, { description: 'The platform that publishes the lot (REST include=platform)' })
  platform(@Root() lot: Source<LotGql>, @Ctx() context: GraphQLContext): Promise<AccountGql> {
    return shownAccount(context, lot.publisherId);
  }

  @FieldResolver(() => [ParticipantGql], { description: 'The newest `last` participants the caller may see (by default and at most 100), oldest first' })
  async participants(
    @Root() lot: Source<LotGql>,
    @Arg('last', () => Int, { defaultValue: ROWS_SHOWN }) last: number,
    @Ctx() { ctx, services, loaders }: GraphQLContext,
  ): Promise<ParticipantGql[]> {
    return services.lots.recentVisibleRows(ctx, lot, await loaders.participants.load(lot.id), last).map(participantGql);
  }

  @FieldResolver(() => [DepositGql], { description: 'The newest `last` deposits the caller may see (by default and at most 100), oldest first' })
  async deposits(
    @Root() lot: Source<LotGql>,
    @Arg('last', () => Int, { defaultValue: ROWS_SHOWN }) last: number,
    @Ctx() { ctx, services, loaders }: GraphQLContext,
  ): Promise<DepositGql[]> {
    return services.lots.recentVisibleRows(ctx, lot, await loaders.deposits.load(lot.id), last).map(depositGql);
  }

  @FieldResolver(() => [LotCallbackGql], { description: 'The newest `last` callback requests the caller may see (by default and at most 100), oldest first' })
  async callbacks(
    @Root() lot: Source<LotGql>,
    @Arg('last', () => Int, { defaultValue: ROWS_SHOWN }) last: number,
    @Ctx() { ctx, services, loaders }: GraphQLContext,
  ): Promise<LotCallbackGql[]> {
    return services.lots.recentVisibleRows(ctx, lot, await loaders.callbacks.load(lot.id), last);
  }

  @FieldResolver(() => [LotStarGql], { description: 'The newest `last` stars the caller may see (by default and at most 100), oldest first' })
  async stars(
    @Root() lot: Source<LotGql>,
    @Arg('last', () => Int, { defaultValue: ROWS_SHOWN }) last: number,
    @Ctx() { ctx, services, loaders }: GraphQLContext,
  ): Promise<LotStarGql[]> {
    return services.lots.recentVisibleRows(ctx, lot, await loaders.stars.load(lot.id), last);
  }

  @FieldResolver(() => [BidGql], { description: 'The newest `last` bids of the history (by default and at most 100), oldest first' })
  async bids(
    @Root() lot: Source<LotGql>,
    @Arg('last', () => Int, { defaultValue: BIDS_SHOWN }) last: number,
    @Ctx() { ctx, services, loaders }: GraphQLContext,
  ): Promise<BidGql[]> {
    return services.lots.recentBids(ctx, lot, await loaders.bids.load(lot.id), last).map(bidGql);
  }

  @FieldResolver(() => WinnerDetailsGql, { nullable: true })
  async winnerDetails(@Root() lot: Source<LotGql>, @Ctx() { ctx, services, loaders }: GraphQLContext): Promise<WinnerDetailsGql | null> {
    const row = services.lots.shownWinnerDetails(ctx, lot, await loaders.winnerDetails.load(lot.id));
    return row && winnerDetailsGql(row);
  }
}
