import { z } from 'zod';

/** POST /transactions: a base64 transaction envelope. */
export const submitTransactionInput = z.object({ tx: z.string().trim().min(1, 'must be a base64 transaction envelope') });
export type SubmitTransactionInput = z.input<typeof submitTransactionInput>;
