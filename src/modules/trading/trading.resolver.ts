import { Arg, Ctx, ID, Mutation, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { payloadOf } from '../../graphql/user-errors';
import { asStored, type ResultCodec } from '../idempotency';
import { LotGql } from '../lots';
import { participantGql, winnerDetailsGql } from './trading.mappers';
import {
  ParticipantGql,
  SubmitBuyNowRequestInput,
  SubmitBuyNowRequestPayloadGql,
  SubmitParticipationRequestInput,
  SubmitParticipationRequestPayloadGql,
  UpdateWinnerDetailsInput,
  UpdateWinnerDetailsPayloadGql,
  WinnerDetailsGql,
  WinnerDetailsInput,
} from './trading.types';

type Joined = { participant: ParticipantGql | null };
type Detailed = { winnerDetails: WinnerDetailsGql | null };

/** A participant as an idempotency key keeps it: JSON, its dates revived. */
const PARTICIPANT: ResultCodec<Joined> = {
  store: (result) => result,
  load: (stored) => {
    const { participant: p } = stored as { participant: ParticipantGql & { createdAt: string; updatedAt: string } };
    return { participant: { ...p, createdAt: new Date(p.createdAt), updatedAt: new Date(p.updatedAt) } };
  },
};

@Resolver()
export class TradingResolver {
  @Mutation(() => ParticipantGql, { description: 'POST /lots/{id}/participation_requests: the caller (a user or broker) joins the lot', deprecationReason: 'Use submitParticipationRequest' })
  async requestParticipation(
    @Arg('lotId', () => ID) lotId: string,
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('buyNow', () => Boolean, { nullable: true, description: 'Required true for a direct sale' }) buyNow?: boolean | null,
  ): Promise<ParticipantGql> {
    const { participant } = await services.participation.participate(ctx, { lotId, buyNow: buyNow ?? undefined });
    return participantGql(participant);
  }

  @Mutation(() => ParticipantGql, { description: 'PATCH /v2/lots/{id}/participants/{account}: the participant itself requests buy now', deprecationReason: 'Use submitBuyNowRequest' })
  async requestBuyNow(
    @Arg('lotId', () => ID) lotId: string,
    @Arg('accountId', () => String) accountId: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<ParticipantGql> {
    return participantGql(await services.participation.buyNow(ctx, { lotId, accountId }));
  }

  @Mutation(() => SubmitParticipationRequestPayloadGql, { description: 'The caller (a user or broker) joins the lot; a refusal is answered in userErrors' })
  async submitParticipationRequest(
    @Arg('input', () => SubmitParticipationRequestInput) input: SubmitParticipationRequestInput,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<SubmitParticipationRequestPayloadGql> {
    const { idempotencyKey, lotId, buyNow } = input;
    return payloadOf<Joined>({ participant: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'submitParticipationRequest', input: { lotId, buyNow } }, PARTICIPANT, async () => {
        const { participant } = await services.participation.participate(ctx, { lotId, buyNow: buyNow ?? undefined });
        return { participant: participantGql(participant) };
      }),
    );
  }

  @Mutation(() => SubmitBuyNowRequestPayloadGql, { description: 'The participant itself requests buy now; a refusal is answered in userErrors' })
  async submitBuyNowRequest(
    @Arg('input', () => SubmitBuyNowRequestInput) input: SubmitBuyNowRequestInput,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<SubmitBuyNowRequestPayloadGql> {
    const { idempotencyKey, lotId, accountId } = input;
    return payloadOf<Joined>({ participant: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'submitBuyNowRequest', input: { lotId, accountId } }, PARTICIPANT, async () => ({
        participant: participantGql(await services.participation.buyNow(ctx, { lotId, accountId })),
      })),
    );
  }

  @Mutation(() => ParticipantGql, { description: "POST /v2/lots/{id}/winners: the lot's organizer or staff of its publisher choose the winner", deprecationReason: 'Use selectWinner' })
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

  @Mutation(() => Boolean, { description: "DELETE /v2/lots/{id}/participants/{account}: the lot's organizer or staff of its publisher reject a participant", deprecationReason: 'Use removeParticipant' })
  async rejectParticipant(
    @Arg('lotId', () => ID) lotId: string,
    @Arg('accountId', () => String) accountId: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<boolean> {
    await services.winners.reject(ctx, { lotId, accountId });
    return true;
  }

  @Mutation(() => LotGql, { description: "POST /lots/closed: the lot's organizer or staff of its publisher close the lot as sold or finished", deprecationReason: 'Use settleLot' })
  async closeLot(
    @Arg('lotId', () => ID) lotId: string,
    @Arg('state', () => String, { description: 'sold or finished' }) state: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<LotGql> {
    const { view } = await services.winners.close(ctx, { lotId, state });
    return services.lots.views(ctx, view)[0];
  }

  @Mutation(() => WinnerDetailsGql, { description: "PUT /lots/{id}/winner_details: the lot's organizer or staff of its publisher record the winner's details", deprecationReason: 'Use updateWinnerDetails' })
  async setWinnerDetails(
    @Arg('lotId', () => ID) lotId: string,
    @Arg('input', () => WinnerDetailsInput) input: WinnerDetailsInput,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<WinnerDetailsGql> {
    const { details } = await services.winners.setWinnerDetails(ctx, { ...input, lotId });
    return winnerDetailsGql(details);
  }

  @Mutation(() => UpdateWinnerDetailsPayloadGql, { description: "The lot's organizer or staff of its publisher record the winner's details; a refusal is answered in userErrors" })
  async updateWinnerDetails(@Arg('input', () => UpdateWinnerDetailsInput) input: UpdateWinnerDetailsInput, @Ctx() { ctx, services }: GraphQLContext): Promise<UpdateWinnerDetailsPayloadGql> {
    const { idempotencyKey, ...details } = input;
    return payloadOf<Detailed>({ winnerDetails: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'updateWinnerDetails', input: details }, asStored<Detailed>(), async () => ({
        winnerDetails: winnerDetailsGql((await services.winners.setWinnerDetails(ctx, details)).details),
      })),
    );
  }
}
