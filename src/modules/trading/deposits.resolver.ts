import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Extensions, FieldResolver, ID, Info, Mutation, Query, Resolver, Root } from 'type-graphql';
import { sortArg } from '../../graphql/args';
import type { GraphQLContext } from '../../graphql/context';
import { payloadOf } from '../../graphql/user-errors';
import { withDates } from '../idempotency';
import { invalid } from '../../core/errors';
import { DEFAULT_PAGE_SIZE } from '../../core/page';
import { ConnectionArgs, connectionOfKeyset, keysetWindow, pageWindow, type ConnectionSource } from '../../graphql/types/connection';
import type { Source } from '../../graphql/source';
import { depositGql, participantGql } from './trading.mappers';
import { DEPOSIT_STATE_NAMES, type DepositState } from './trading.entity';
import { DepositConnectionGql, DepositGql, DepositStateGql, ParticipantGql, UpdateDepositStateInput, UpdateDepositStatePayloadGql } from './trading.types';
import { readsThroughLoader, runsStatement } from '../../graphql/statement-cost';

const DEPOSIT = withDates<'deposit', DepositGql>('deposit', ['createdAt', 'updatedAt']);

@Resolver(() => DepositGql)
export class DepositsResolver {
  @Extensions(runsStatement())
  @Query(() => DepositConnectionGql, {
    description: "The caller's own deposits and those on lots it organizes or whose publisher it is staff of: 15 without `first` or `last`",
  })
  async deposits(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args() page: ConnectionArgs,
    @Info() info: GraphQLResolveInfo,
    @Arg('state', () => [String], { nullable: true, description: 'pending, paid, returned, fee_charged', deprecationReason: 'Use `DepositState` values in `states`' }) state?: string[] | null,
    @Arg('states', () => [DepositStateGql], { nullable: true, description: 'Deposits in any of these states' }) states?: number[] | null,
    @Arg('lotId', () => ID, { nullable: true }) lotId?: string | null,
    @Arg('sort', () => String, { nullable: true, description: 'created_at, a leading - for descending; -created_at by default' }) sort?: string | null,
  ): Promise<ConnectionSource<DepositGql>> {
    if (state && states) throw invalid('invalid_parameter', 'give state or states, not both', { field: 'states' });
    const filter = { state: states ? states.map((code) => DEPOSIT_STATE_NAMES[code as DepositState]) : (state ?? undefined), lotId: lotId ?? undefined };
    const view = await services.deposits.list(ctx, { filter, sort: sortArg(sort), page: keysetWindow(pageWindow(page, 'Query.deposits', info, DEFAULT_PAGE_SIZE)) });
    return connectionOfKeyset('Query.deposits', view, view.items.map(depositGql), () => services.deposits.count(ctx, { filter }));
  }

  @Mutation(() => DepositGql, { description: "PATCH /deposits/{id}: staff of the lot's publisher mark a deposit paid or returned", deprecationReason: 'Use updateDepositState' })
  async setDepositState(
    @Arg('id', () => ID) id: string,
    @Arg('state', () => String, { description: 'paid or returned' }) state: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<DepositGql> {
    return depositGql((await services.deposits.setState(ctx, { id, state })).deposit);
  }

  @Mutation(() => UpdateDepositStatePayloadGql, { description: "Staff of the lot's publisher mark a deposit paid or returned; a refusal is answered in userErrors" })
  async updateDepositState(@Arg('input', () => UpdateDepositStateInput) input: UpdateDepositStateInput, @Ctx() { ctx, services }: GraphQLContext): Promise<UpdateDepositStatePayloadGql> {
    const { idempotencyKey, id, state } = input;
    return payloadOf({ deposit: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'updateDepositState', input: { id, state } }, DEPOSIT, async () => ({
        deposit: depositGql((await services.deposits.setState(ctx, { id, state })).deposit),
      })),
    );
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => ParticipantGql, { nullable: true, description: 'The participant that made the deposit' })
  async participant(@Root() deposit: Source<DepositGql>, @Ctx() { loaders }: GraphQLContext): Promise<ParticipantGql | null> {
    const row = await loaders.participant.load(deposit.participantId);
    return row && participantGql(row);
  }
}
