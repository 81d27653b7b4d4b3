import { changedBy } from '../../db/query';
import { sql } from '../../db/sql';
import type { Cleaner } from '../../app-modules';

/** Recovery requests are valid for 24 hours; expired ones go. */
export const deleteExpiredRecoveryRequests: Cleaner = {
  kind: 'cleaner',
  name: 'expired recovery requests',
  async run(em) {
    return changedBy(em, sql`delete from recovery_requests where expires_at <= ${new Date()}`);
  },
};
