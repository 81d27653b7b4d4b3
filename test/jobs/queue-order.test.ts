import { startTestApp } from '../helpers/app';
import { JOBS_ENV } from './jobs.helpers';

// A queue is a partition of pg-boss's job table: a job inserted while another queue's partition is
// being attached can fail with "no partition of relation job found for row". A start therefore
// creates every queue before its workers run or it sends a job.
it('creates every queue before the first job is sent', async () => {
  const t = await startTestApp({ ...JOBS_ENV, RATES_URL: 'http://127.0.0.1:9/rates.json', RATES_POLL_SECONDS: '1' });
  try {
    const [row] = await t.orm.em.fork().getConnection().execute<{ queues: string; jobs: string; sentBefore: string }[]>(
      `select (select count(*) from pgboss.queue) as queues,
              (select count(*) from pgboss.job) as jobs,
              (select count(*) from pgboss.job where created_on < (select max(created_on) from pgboss.queue)) as "sentBefore"`,
    );
    expect(Number(row.queues)).toBe(9);
    expect(Number(row.jobs)).toBeGreaterThan(0);
    expect(Number(row.sentBefore)).toBe(0);
  } finally {
    await t.close();
  }
});
