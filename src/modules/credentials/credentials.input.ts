import { z } from 'zod';
import { accountId, password } from '../accounts';

/** PUT /credentials: the first password of the account. */
export const createCredentialsInput = z.object({ accountId, password });
export type CreateCredentialsInput = z.input<typeof createCredentialsInput>;

/**
 * POST /jwt: accountId, or email together with platformId, and the password. Which
 * identification is complete is decided by the service (`identification_incomplete`).
 */
export const issueTokenInput = z.object({
  accountId: accountId.nullish(),
  email: z.string().trim().min(1, 'must not be empty').max(254).nullish(),
  platformId: accountId.nullish(),
  password,
});
export type IssueTokenInput = z.input<typeof issueTokenInput>;

/** PATCH /credentials. */
export const changePasswordInput = z.object({ oldPassword: password, newPassword: password });
export type ChangePasswordInput = z.input<typeof changePasswordInput>;
