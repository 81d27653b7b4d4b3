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
import { readsThroughLoader, runsOwnStatement, runsStatement } from '../../graphql/statement-cost';
import { registerNode } from '../../graphql/types/node';
import type { Source } from '../../graphql/source';
import { AccountGql, shownAccount } from '../accounts';
import { CurrencyGql } from '../../graphql/types/money';
import { LotGroupByGql, lotsAggregateGql, LotsAggregateGql } from './lots.aggregate.types';
import type { LotGroup } from './lots.aggregate';
import { CreateLotInput, UpdateLotInput, LotConnectionGql, LotFilterInput, LotGql, LotSortInput } from './lots.types';

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
  const page = keysetWindow(pageWindow(args, list, info, DEFAULT_PAGE_SIZE));
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

async function lotById(id: string, currency: string | undefined, { ctx, services }: Pick<GraphQLContext, 'ctx' | 'services'>): Promise<LotGql> {
  return services.lots.views(ctx, await services.lots.get(ctx, { id, currency }))[0];
}
registerNode('Lot', (id, context) => lotById(id, undefined, context));

@Resolver(() => LotGql)
export class LotsResolver {
  @Extensions(runsStatement())
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

  @Mutation(() => CreateLotResultGql, { deprecationReason: 'Use addLot' })
  async createLot(@Arg('input', () => CreateLotInput) input: CreateLotInput, @Ctx() { ctx, services }: GraphQLContext): Promise<CreateLotResultGql> {
    const created = await services.lots.create(ctx, withoutNulls(input));
    return { lotId: created.lot?.id ?? null, requestId: created.request?.id ?? null };
  }

  @Mutation(() => LotGql, { description: "PATCH /lots/{id}: the lot's organizer or staff of its publisher change its reserve price before the first bid", deprecationReason: 'Use editLot' })
  async updateLot(@Arg('id', () => ID) id: string, @Arg('input', () => UpdateLotInput) input: UpdateLotInput, @Ctx() { ctx, services }: GraphQLContext): Promise<LotGql> {
    return services.lots.views(ctx, await services.lots.update(ctx, { ...input, id }))[0];
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => AccountGql)
  organizer(@Root() lot: Source<LotGql>, @Ctx() context: GraphQLContext): Promise<AccountGql> {
    return shownAccount(context, lot.organizerId);
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => AccountGql, { description: 'The platform that publishes the lot (REST include=platform)' })
  platform(@Root() lot: Source<LotGql>, @Ctx() context: GraphQLContext): Promise<AccountGql> {
    return shownAccount(context, lot.publisherId);
  }
}
