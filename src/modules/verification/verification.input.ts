import { z } from 'zod';
import type { VerificationChannel } from './verification.entity';

const CHANNELS: readonly string[] = ['email', 'phone'] satisfies VerificationChannel[];

/** GET /accounts/verification/resend: new tokens to some of the account's channels. */
export const resendInput = z.object({
  accountId: z.string(),
  receivers: z
    .array(z.string())
    .refine((list) => list.length > 0 && list.every((c) => CHANNELS.includes(c)), 'must list email and/or phone')
    .transform((list) => list as VerificationChannel[]),
});
export type ResendInput = z.input<typeof resendInput>;

/** PATCH /accounts/verification/{email|phone}. */
export const verifyInput = z.object({
  accountId: z.string({ error: 'must be an account id' }).min(1, 'must be an account id'),
  token: z.string().min(1).max(64),
});
export type VerifyInput = z.input<typeof verifyInput>;
