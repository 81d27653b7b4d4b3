import { Arg, Ctx, Field, FieldResolver, ID, Int, Mutation, ObjectType, Query, Resolver, Root } from 'type-graphql';
import { seesLotRow, seesWinnerDetails } from '../../core/policies';
import type { GraphQLContext } from '../../graphql/context';
import { parseQuery } from '../../rest/query';
import type { Account } from '../accounts/accounts.entity';
import { bidGql } from '../bids/bids.mappers';
import { BidGql } from '../bids/bids.types';
import { accountGql, AccountGql, snakeAttributes } from '../accounts/accounts.types';
import { depositGql, participantGql, winnerDetailsGql } from '../trading/trading.mappers';
import { DepositGql, ParticipantGql, WinnerDetailsGql } from '../trading/trading.types';
import type { LotFilter, LotSortKey } from './lots.filter';
import { filterAsQuery, lotGql } from './lots.mappers';
import { LOT_COUNT_QUERY } from './lots.schema';
import { CreateLotInput, LotCallbackGql, LotConnectionGql, LotFilterInput, LotGql, LotSortInput, LotStarGql } from './lots.types';

@ObjectType('CreateLotResult', { description: 'Staff create the lot; anyone else files a create_lot request' })
class CreateLotResultGql {
  @Field(() => ID, { nullable: true }) lotId!: string | null;
  @Field(() => ID, { nullable: true }) requestId!: string | null;
}

const toFilter = (filter: LotFilterInput | undefined): LotFilter => parseQuery(LOT_COUNT_QUERY, filterAsQuery(filter)).filters as LotFilter;

@Resolver(() => LotGql)
export class LotsResolver {
  @Query(() => LotGql)
  async lot(
    @Arg('id', () => ID) id: string,
    @Arg('currency', () => String, { nullable: true }) currency: string | undefined,
    @Ctx() { rc, services }: GraphQLContext,
  ): Promise<LotGql> {
    const view = await services.lots.get(rc, id, new Set(), currency);
    return lotGql(view.lots[0], view.convert, currency);
  }

  @Query(() => LotConnectionGql)
  async lots(
    @Arg('filter', () => LotFilterInput, { nullable: true }) filter: LotFilterInput | undefined,
    @Arg('sort', () => LotSortInput, { nullable: true }) sort: LotSortInput | undefined,
    @Arg('first', () => Int, { defaultValue: 15 }) first: number,
    @Arg('after', () => String, { nullable: true }) after: string | undefined,
    @Ctx() { rc, services }: GraphQLContext,
  ): Promise<LotConnectionGql> {
    const raw = { ...filterAsQuery(filter), 'page[limit]': String(first) };
    const page = parseQuery({ ...LOT_COUNT_QUERY, page: 'cursor' }, raw).page as { limit: number };
    const parsed = toFilter(filter);
    const view = await services.lots.index(rc, {
      filter: parsed,
      sort: { key: (sort?.key ?? 'start_time') as LotSortKey, desc: sort ? sort.desc : true },
      cursor: after ?? null,
      limit: page.limit,
    });
    return {
      nodes: view.lots.map((l) => lotGql(l, view.convert, parsed.currency)),
      pageInfo: { hasNextPage: view.next !== null, hasPreviousPage: view.prev !== null, endCursor: view.next, startCursor: view.prev },
    };
  }

  @Query(() => Int)
  lotsCount(@Arg('filter', () => LotFilterInput, { nullable: true }) filter: LotFilterInput | undefined, @Ctx() { rc, services }: GraphQLContext): Promise<number> {
    return services.lots.count(rc, toFilter(filter));
  }

  @Mutation(() => CreateLotResultGql)
  async createLot(@Arg('input', () => CreateLotInput) input: CreateLotInput, @Ctx() { rc, services }: GraphQLContext): Promise<CreateLotResultGql> {
    const created = await services.lots.create(rc, { attributes: snakeAttributes(input) });
    return { lotId: created.lot?.id ?? null, requestId: created.request?.id ?? null };
  }

  @FieldResolver(() => AccountGql)
  async organizer(@Root() lot: LotGql, @Ctx() { rc, services, loaders }: GraphQLContext): Promise<AccountGql> {
    const account = (await loaders.account.load(lot.organizerId)) as Account;
    return accountGql(account, services.accounts.seesFull(rc, account) ? 'full' : 'public');
  }

  @FieldResolver(() => [ParticipantGql])
  async participants(@Root() lot: LotGql, @Ctx() { rc, loaders }: GraphQLContext): Promise<ParticipantGql[]> {
    const rows = await loaders.participants.load(lot.id);
    return rows.filter((p) => seesLotRow(rc.caller, lot, p.accountId)).map(participantGql);
  }

  @FieldResolver(() => [DepositGql])
  async deposits(@Root() lot: LotGql, @Ctx() { rc, loaders }: GraphQLContext): Promise<DepositGql[]> {
    const rows = await loaders.deposits.load(lot.id);
    return rows.filter((d) => seesLotRow(rc.caller, lot, d.accountId)).map(depositGql);
  }

  @FieldResolver(() => [LotCallbackGql])
  async callbacks(@Root() lot: LotGql, @Ctx() { rc, loaders }: GraphQLContext): Promise<LotCallbackGql[]> {
    const rows = await loaders.callbacks.load(lot.id);
    return rows.filter((c) => seesLotRow(rc.caller, lot, c.accountId));
  }

  @FieldResolver(() => [LotStarGql])
  async stars(@Root() lot: LotGql, @Ctx() { rc, loaders }: GraphQLContext): Promise<LotStarGql[]> {
    const rows = await loaders.stars.load(lot.id);
    return rows.filter((s) => seesLotRow(rc.caller, lot, s.accountId));
  }

  @FieldResolver(() => [BidGql], { description: 'The bid history, oldest first' })
  async bids(@Root() lot: LotGql, @Ctx() { rc, loaders }: GraphQLContext): Promise<BidGql[]> {
    return (await loaders.bids.load(lot.id)).map((b) => bidGql(b, seesLotRow(rc.caller, lot, b.accountId)));
  }

  @FieldResolver(() => WinnerDetailsGql, { nullable: true })
  async winnerDetails(@Root() lot: LotGql, @Ctx() { rc, loaders }: GraphQLContext): Promise<WinnerDetailsGql | null> {
    const row = await loaders.winnerDetails.load(lot.id);
    return row && seesWinnerDetails(rc.caller, lot) ? winnerDetailsGql(row) : null;
  }
}
