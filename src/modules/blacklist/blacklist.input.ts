import { z } from 'zod';

/** PUT /blacklist: stops or pauses an account. */
export const blacklistInput = z.object({
  accountId: z.string(),
  // z.string() first: a missing state is then `missing_field` (zod reports a missing enum as invalid_value).
  state: z.string().pipe(z.enum(['stopped', 'paused'], { error: 'must be stopped or paused' })),
});
export type BlacklistInput = z.input<typeof blacklistInput>;
