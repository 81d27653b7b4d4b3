import { z } from 'zod';
import { priceInput } from '../../core/money';

/** A bid, or with `maxAmount` a max bid that raises itself. */
export const placeBidInput = z
  .object({ lotId: z.string(), amount: priceInput.optional(), maxAmount: priceInput.optional() })
  .superRefine((v, ctx) => {
    if (v.amount === undefined && v.maxAmount === undefined) ctx.addIssue({ code: 'custom', path: ['amount'], message: 'amount (or maxAmount) is required' });
  });
export type PlaceBidInput = z.input<typeof placeBidInput>;
