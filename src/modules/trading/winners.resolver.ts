import { Arg, Ctx, Extensions, FieldResolver, Mutation, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { payloadOf } from '../../graphql/user-errors';
import { asStored, type ResultCodec } from '../idempotency';
import { LotGql } from '../lots';
import { participantGql } from './trading.mappers';
import type { ParticipantGql } from './trading.types';
import { RemoveParticipantInput, RemoveParticipantPayloadGql, SelectWinnerInput, SelectWinnerPayloadGql, SettleLotInput, SettleLotPayloadGql } from './winners.types';
import { readsThroughLoader } from '../../graphql/statement-cost';

type Chosen = { participant: ParticipantGql | null };
type Removed = Omit<RemoveParticipantPayloadGql, 'userErrors'>;
type Settled = Omit<SettleLotPayloadGql, 'userErrors'>;

/** A participant as an idempotency key keeps it: JSON, its dates revived. */
const CHOSEN: ResultCodec<Chosen> = {
  store: (result) => result,
  load: (stored) => {
    const { participant: p } = stored as { participant: ParticipantGql & { createdAt: string; updatedAt: string } };
    return { participant: { ...p, createdAt: new Date(p.createdAt), updatedAt: new Date(p.updatedAt) } };
  },
};

/** The lot managers' payload mutations: choosing the winner, rejecting a participant, closing the lot. */
@Resolver(() => SettleLotPayloadGql)
export class WinnersResolver {
  @Mutation(() => SelectWinnerPayloadGql, { description: "The lot's organizer or staff of its publisher choose the winner; a refusal is answered in userErrors" })
  async selectWinner(@Arg('input', () => SelectWinnerInput) input: SelectWinnerInput, @Ctx() { ctx, services }: GraphQLContext): Promise<SelectWinnerPayloadGql> {
    const { idempotencyKey, lotId, participantId, buyNow, accountId, acceptBelowReserve } = input;
    const call = { lotId, participantId, buyNow: buyNow ?? undefined, accountId: accountId ?? undefined, acceptBelowReserve: acceptBelowReserve ?? undefined };
    return payloadOf<Chosen>({ participant: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'selectWinner', input: call }, CHOSEN, async () => ({
        participant: participantGql((await services.winners.chooseWinner(ctx, call)).winner),
      })),
    );
  }

  @Mutation(() => RemoveParticipantPayloadGql, { description: "The lot's organizer or staff of its publisher reject a participant; a refusal is answered in userErrors" })
  async removeParticipant(@Arg('input', () => RemoveParticipantInput) input: RemoveParticipantInput, @Ctx() { ctx, services }: GraphQLContext): Promise<RemoveParticipantPayloadGql> {
    const { idempotencyKey, lotId, accountId } = input;
    return payloadOf<Removed>({ lotId: null, accountId: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'removeParticipant', input: { lotId, accountId } }, asStored<Removed>(), async () => {
        await services.winners.reject(ctx, { lotId, accountId });
        return { lotId, accountId };
      }),
    );
  }

  @Mutation(() => SettleLotPayloadGql, { description: "The lot's organizer or staff of its publisher close the lot as sold or finished; a refusal is answered in userErrors" })
  async settleLot(@Arg('input', () => SettleLotInput) input: SettleLotInput, @Ctx() { ctx, services }: GraphQLContext): Promise<SettleLotPayloadGql> {
    const { idempotencyKey, lotId, state } = input;
    return payloadOf<Settled>({ lotId: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'settleLot', input: { lotId, state } }, asStored<Settled>(), async () => {
        await services.winners.close(ctx, { lotId, state });
        return { lotId };
      }),
    );
  }

  @Extensions(readsThroughLoader())
  @FieldResolver(() => LotGql, { nullable: true, description: 'The lot closed, as it is now, in its own currency' })
  async lot(@Root() payload: SettleLotPayloadGql, @Ctx() { loaders }: GraphQLContext): Promise<LotGql | null> {
    return payload.lotId === null ? null : loaders.lot.load(payload.lotId);
  }
}
