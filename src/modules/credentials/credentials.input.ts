import { z } from 'zod';
import { accountId, password } from '../accounts/accounts.input';

/** PUT /credentials: the password of the account named by data.id (INTERFACE.md §4.2, §8). */
export const createCredentialsSchema = z.object({ password });

/**
 * POST /jwt: account_id, or email together with platform_id, and the password. Which
 * identification is complete is decided by the service (`identification_incomplete`).
 */
export const issueTokenSchema = z.object({
  account_id: accountId.nullish(),
  email: z.string().trim().min(1, 'must not be empty').max(254).nullish(),
  platform_id: accountId.nullish(),
  password,
});
export type IssueTokenAttributes = z.infer<typeof issueTokenSchema>;

/** PATCH /credentials. */
export const changePasswordSchema = z.object({ old_password: password, new_password: password });
