import { changedBy } from '../../db/query';
import { sql } from '../../db/sql';
import type { Cleaner } from '../../app-modules';

/** Verification tokens are valid for 24 hours; expired ones go. */
export const deleteExpiredVerificationTokens: Cleaner = {
  kind: 'cleaner',
  name: 'expired verification tokens',
  async run(em) {
    return changedBy(em, sql`delete from verification_tokens where expires_at <= ${new Date()}`);
  },
};
