import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Extensions, ID, Info, Int, Mutation, Query, Resolver } from 'type-graphql';
import { ConnectionArgs, connectionOfWindow, pageWindow, type ConnectionSource } from '../../graphql/types/connection';
import { SecondChanceOfferConnectionGql } from './offers.connection.types';
import { notFound } from '../../core/errors';
import { formatMoney } from '../../core/money';
import { MAX_PAGE_SIZE } from '../../core/page';
import type { GraphQLContext } from '../../graphql/context';
import { registerNode } from '../../graphql/types/node';
import { payloadOf } from '../../graphql/user-errors';
import { withDates } from '../idempotency';
import type { SecondChanceOffer } from './offers.entity';
import { AnswerSecondChanceOfferInput, AnswerSecondChanceOfferPayloadGql, CreateSecondChanceOfferInput, CreateSecondChanceOfferPayloadGql, SecondChanceOfferGql } from './offers.types';
import { runsStatement } from '../../graphql/statement-cost';

const offerGql = (o: SecondChanceOffer): SecondChanceOfferGql => ({ ...o, amount: formatMoney(o.amount) });
const OFFER = withDates<'secondChanceOffer', SecondChanceOfferGql>('secondChanceOffer', ['expiresAt', 'answeredAt', 'createdAt']);

// An offer refetched by id is one `secondChanceOffersConnection` would list the caller; ids in one request are read together.
registerNode('SecondChanceOffer', async (id, { loaders }) => {
  const offer = await loaders.secondChanceOffer.load(id);
  if (!offer) throw notFound('second_chance_offer_not_found', 'no such second-chance offer');
  return offerGql(offer);
});

@Resolver()
export class OffersResolver {
  @Extensions(runsStatement())
  @Query(() => [SecondChanceOfferGql], {
    nullable: true,
    description: "GET /lots/{id}/second_chance_offers: the newest `last` (by default and at most 100), oldest first; all to the lot's organizer and staff, a bidder's own to a bidder",
    deprecationReason: 'Use `secondChanceOffersConnection`',
  })
  async secondChanceOffers(
    @Arg('lotId', () => ID) lotId: string,
    @Arg('last', () => Int, { defaultValue: MAX_PAGE_SIZE }) last: number,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<SecondChanceOfferGql[]> {
    return (await services.secondChance.list(ctx, { lotId }, last)).map(offerGql);
  }

  @Extensions(runsStatement())
  @Query(() => SecondChanceOfferConnectionGql, { description: "A lot's second-chance offers, oldest first (`last` pages back from the newest): all to the lot's organizer and staff, a bidder's own to a bidder" })
  async secondChanceOffersConnection(@Arg('lotId', () => ID) lotId: string, @Args() page: ConnectionArgs, @Ctx() { ctx, services }: GraphQLContext, @Info() info: GraphQLResolveInfo): Promise<ConnectionSource<SecondChanceOfferGql>> {
    const window = pageWindow(page, `Query.secondChanceOffersConnection:${lotId}`, info);
    return connectionOfWindow(window, await services.secondChance.window(ctx, { lotId }, window), (items) => items.map(offerGql));
  }

  @Mutation(() => SecondChanceOfferGql, { description: "POST /lots/{id}/second_chance_offers: the lot's organizer or staff offer a lot whose winner's deal was canceled, or whose reserve lapsed, to the next bidder", deprecationReason: 'Use createSecondChanceOffer' })
  async offerSecondChance(
    @Arg('lotId', () => ID) lotId: string,
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('accountId', () => String, { nullable: true, description: 'The bidder to offer it to; by default the highest bidder not offered it yet' }) accountId?: string | null,
    @Arg('expiresIn', () => Int, { nullable: true, description: "Seconds the offer stays open; at most, and by default, the lot's second_chance_ttl (48 hours when unset)" }) expiresIn?: number | null,
  ): Promise<SecondChanceOfferGql> {
    return offerGql(await services.secondChance.offer(ctx, { lotId, accountId: accountId ?? undefined, expiresIn: expiresIn ?? undefined }));
  }

  @Mutation(() => SecondChanceOfferGql, { description: 'PATCH /lots/{id}/second_chance_offers/{offer-id}: the bidder offered accepts (and wins) or declines', deprecationReason: 'Use answerSecondChanceOffer' })
  async answerSecondChance(
    @Arg('lotId', () => ID) lotId: string,
    @Arg('offerId', () => ID) offerId: string,
    @Arg('state', () => String, { description: 'accepted or declined' }) state: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<SecondChanceOfferGql> {
    return offerGql(await services.secondChance.answer(ctx, { lotId, offerId, state }));
  }

  @Mutation(() => CreateSecondChanceOfferPayloadGql, { description: "The lot's organizer or staff offer the lot to the next bidder (docs/auction-rules.md); a refusal is answered in userErrors" })
  async createSecondChanceOffer(@Arg('input', () => CreateSecondChanceOfferInput) input: CreateSecondChanceOfferInput, @Ctx() { ctx, services }: GraphQLContext): Promise<CreateSecondChanceOfferPayloadGql> {
    const { idempotencyKey, lotId } = input;
    const call = { lotId, accountId: input.accountId ?? undefined, expiresIn: input.expiresIn ?? undefined };
    return payloadOf({ secondChanceOffer: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'createSecondChanceOffer', input: call }, OFFER, async () => ({ secondChanceOffer: offerGql(await services.secondChance.offer(ctx, call)) })),
    );
  }

  @Mutation(() => AnswerSecondChanceOfferPayloadGql, { description: 'The bidder offered accepts (and wins) or declines; a refusal is answered in userErrors' })
  async answerSecondChanceOffer(@Arg('input', () => AnswerSecondChanceOfferInput) input: AnswerSecondChanceOfferInput, @Ctx() { ctx, services }: GraphQLContext): Promise<AnswerSecondChanceOfferPayloadGql> {
    const { idempotencyKey, lotId, offerId, state } = input;
    return payloadOf({ secondChanceOffer: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'answerSecondChanceOffer', input: { lotId, offerId, state } }, OFFER, async () => ({
        secondChanceOffer: offerGql(await services.secondChance.answer(ctx, { lotId, offerId, state })),
      })),
    );
  }
}
