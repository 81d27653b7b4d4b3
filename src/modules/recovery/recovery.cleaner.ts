import type { Cleaner } from '../../jobs/job';

/** Recovery requests are valid for 24 hours; expired ones go. */
export const deleteExpiredRecoveryRequests: Cleaner = {
  kind: 'cleaner',
  name: 'expired recovery requests',
  async run(em) {
    const rows = await em.getConnection().execute<unknown[]>('delete from recovery_requests where expires_at <= ? returning account_id', [new Date()]);
    return rows.length;
  },
};
