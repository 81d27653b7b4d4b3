import { z } from 'zod';
import { accountId, password } from '../accounts';

/** PUT /recovery_requests without accountId: the account by its email on its platform. */
export const recoveryByEmailInput = z.object({
  email: z.string().trim().min(1, 'must not be empty').max(254).nullish(),
  platformId: accountId.nullish(),
});

/** PUT /recovery_requests: accountId, or email together with platformId. */
export type RequestRecoveryInput = z.input<typeof recoveryByEmailInput> & { accountId?: string | null };

/** PATCH /recovery_requests: the token of the account's request and the new password. */
export const approveRecoveryInput = z.object({
  accountId: z.string(),
  token: z.string().min(1, 'must not be empty').max(64),
  newPassword: password,
});
export type ApproveRecoveryInput = z.input<typeof approveRecoveryInput>;
