import { z } from 'zod';

/** GET /accounts/{id}/buying_power: the platform defaults to the account's own. */
export const buyingPowerInput = z.object({ accountId: z.string().min(1).max(56), platformId: z.string().min(1).max(56).optional() });
export type BuyingPowerInput = z.input<typeof buyingPowerInput>;
