import { Arg, Ctx, FieldResolver, ID, Int, Mutation, Query, Resolver, Root } from 'type-graphql';
import { sortArg } from '../../graphql/args';
import type { GraphQLContext } from '../../graphql/context';
import type { Source } from '../../graphql/source';
import { depositGql, participantGql } from './trading.mappers';
import { DepositConnectionGql, DepositGql, ParticipantGql } from './trading.types';

@Resolver(() => DepositGql)
export class DepositsResolver {
  @Query(() => DepositConnectionGql, {
    description: "GET /deposits: the caller's own deposits and those on lots it organizes or whose publisher it is staff of",
  })
  async deposits(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('state', () => [String], { nullable: true, description: 'pending, paid, returned, fee_charged' }) state?: string[] | null,
    @Arg('lotId', () => ID, { nullable: true }) lotId?: string | null,
    @Arg('sort', () => String, { nullable: true, description: 'created_at, a leading - for descending; -created_at by default' }) sort?: string | null,
    @Arg('first', () => Int, { nullable: true, description: '1 to 100; 15 by default' }) first?: number | null,
    @Arg('after', () => String, { nullable: true, description: 'A cursor from pageInfo' }) after?: string | null,
  ): Promise<DepositConnectionGql> {
    const view = await services.deposits.list(ctx, {
      filter: { state: state ?? undefined, lotId: lotId ?? undefined },
      sort: sortArg(sort),
      page: { cursor: after, limit: first ?? undefined },
    });
    return {
      nodes: view.items.map(depositGql),
      pageInfo: { hasNextPage: view.next !== null, hasPreviousPage: view.prev !== null, endCursor: view.next, startCursor: view.prev },
    };
  }

  @Mutation(() => DepositGql, { description: "PATCH /deposits/{id}: staff of the lot's publisher mark a deposit paid or returned" })
  async setDepositState(
    @Arg('id', () => ID) id: string,
    @Arg('state', () => String, { description: 'paid or returned' }) state: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<DepositGql> {
    return depositGql((await services.deposits.setState(ctx, { id, state })).deposit);
  }

  @FieldResolver(() => ParticipantGql, { nullable: true, description: 'The participant that made the deposit' })
  async participant(@Root() deposit: Source<DepositGql>, @Ctx() { loaders }: GraphQLContext): Promise<ParticipantGql | null> {
    const row = await loaders.participant.load(deposit.participantId);
    return row && participantGql(row);
  }
}
