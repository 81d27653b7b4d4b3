import { z } from 'zod';

/** Offer a lot to a bidder: the highest one left unless `accountId` names one; open for `expiresIn` seconds (at most the lot's second_chance_ttl). */
export const offerInput = z.object({
  lotId: z.unknown(),
  accountId: z.string({ error: 'must be an account id' }).min(1).max(56).optional(),
  expiresIn: z.number({ error: 'must be a whole number of seconds' }).int('must be a whole number of seconds').min(1, 'must be at least 1 second').optional(),
});
export type OfferInput = z.input<typeof offerInput>;

export const ANSWERS = ['accepted', 'declined'] as const;

/** The offered bidder's answer. */
export const answerInput = z.object({
  lotId: z.unknown(),
  offerId: z.unknown(),
  state: z.string({ error: 'must be accepted or declined' }).pipe(z.enum(ANSWERS, { error: 'must be accepted or declined' })),
});
export type AnswerInput = z.input<typeof answerInput>;

export const offersOfLotInput = z.object({ lotId: z.unknown() });
export type OffersOfLotInput = z.input<typeof offersOfLotInput>;
