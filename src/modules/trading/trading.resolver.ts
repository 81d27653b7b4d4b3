import { Arg, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { LotGql } from '../lots';
import { participantGql, winnerDetailsGql } from './trading.mappers';
import { ParticipantGql, WinnerDetailsGql, WinnerDetailsInput } from './trading.types';

@Resolver()
export class TradingResolver {
  @Mutation(() => ParticipantGql, { description: 'POST /lots/{id}/participation_requests: the caller (a user or broker) joins the lot' })
  async requestParticipation(
    @Arg('lotId', () => ID) lotId: string,
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('buyNow', () => Boolean, { nullable: true, description: 'Required true for a direct sale' }) buyNow?: boolean | null,
  ): Promise<ParticipantGql> {
    const { participant } = await services.participation.participate(ctx, { lotId, buyNow: buyNow ?? undefined });
    return participantGql(participant);
  }

  @Mutation(() => ParticipantGql, { description: 'PATCH /v2/lots/{id}/participants/{account}: the participant itself requests buy now' })
  async requestBuyNow(
    @Arg('lotId', () => ID) lotId: string,
    @Arg('accountId', () => String) accountId: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<ParticipantGql> {
    return participantGql(await services.participation.buyNow(ctx, { lotId, accountId }));
  }

  @Mutation(() => ParticipantGql, { description: "POST /v2/lots/{id}/winners: the lot's organizer or staff of its publisher choose the winner" })
  async chooseWinner(
    @Arg('lotId', () => ID) lotId: string,
    @Arg('participantId', () => ID) participantId: string,
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('buyNow', () => Boolean, { nullable: true, description: 'true makes the participant buy_now_winner' }) buyNow?: boolean | null,
    @Arg('accountId', () => String, { nullable: true, description: "When given, must be the participant's account id" }) accountId?: string | null,
    @Arg('acceptBelowReserve', () => Boolean, { nullable: true, description: "Required true to choose a participant whose highest bid is under the lot's reserve price" }) acceptBelowReserve?: boolean | null,
  ): Promise<ParticipantGql> {
    const { winner } = await services.winners.chooseWinner(ctx, { lotId, participantId, buyNow: buyNow ?? undefined, accountId: accountId ?? undefined, acceptBelowReserve: acceptBelowReserve ?? undefined });
    return participantGql(winner);
  }

  @Mutation(() => Boolean, { description: "DELETE /v2/lots/{id}/participants/{account}: the lot's organizer or staff of its publisher reject a participant" })
  async rejectParticipant(
    @Arg('lotId', () => ID) lotId: string,
    @Arg('accountId', () => String) accountId: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<boolean> {
    await services.winners.reject(ctx, { lotId, accountId });
    return true;
  }

  @Mutation(() => LotGql, { description: "POST /lots/closed: the lot's organizer or staff of its publisher close the lot as sold or finished" })
  async closeLot(
    @Arg('lotId', () => ID) lotId: string,
    @Arg('state', () => String, { description: 'sold or finished' }) state: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<LotGql> {
    const { view } = await services.winners.close(ctx, { lotId, state });
    return services.lots.views(ctx, view)[0];
  }

  @Mutation(() => WinnerDetailsGql, { description: "PUT /lots/{id}/winner_details: the lot's organizer or staff of its publisher record the winner's details" })
  async setWinnerDetails(
    @Arg('lotId', () => ID) lotId: string,
    @Arg('input', () => WinnerDetailsInput) input: WinnerDetailsInput,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<WinnerDetailsGql> {
    const { details } = await services.winners.setWinnerDetails(ctx, { ...input, lotId });
    return winnerDetailsGql(details);
  }
}
