import type { Cleaner } from '../../jobs/job';

/** Verification tokens are valid for 24 hours; expired ones go. */
export const deleteExpiredVerificationTokens: Cleaner = {
  kind: 'cleaner',
  name: 'expired verification tokens',
  async run(em) {
    const rows = await em.getConnection().execute<unknown[]>('delete from verification_tokens where expires_at <= ? returning id', [new Date()]);
    return rows.length;
  },
};
