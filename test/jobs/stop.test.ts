import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { JOBS_SCHEMA } from '../../src/jobs/jobs';
import { LOT_QUEUES } from '../../src/modules/lots';
import { startTestApp } from '../helpers/app';
import { createTestDatabase } from '../helpers/db';
import { JOBS_ENV, waitFor } from './jobs.helpers';

it('an instance that stops while its workers wait on the database records the jobs they then fetch, and only then closes', async () => {
  const db = await createTestDatabase();
  const t = await startTestApp(JOBS_ENV, db);
  const blocker = new pg.Client({ connectionString: db.url });
  await blocker.connect();
  try {
    // The job table locked: every worker's next fetch waits on it, with a job behind the lock.
    await blocker.query('begin');
    await blocker.query(`lock table ${JOBS_SCHEMA}.job in access exclusive mode`);
    const { rows } = await blocker.query<{ id: string }>(`insert into ${JOBS_SCHEMA}.job (name, data) values ($1, $2) returning id`, [LOT_QUEUES.invoice, { lotId: '0' }]);
    const waiting = async () =>
      (await blocker.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where application_name = 'auction-jobs' and wait_event_type = 'Lock'`)).rows[0].n;
    await waitFor('the queue connections to wait on the lock', async () => (await waiting()) > 0);
    // Each worker polls every half second: by now every one has a fetch blocked or queued.
    await sleep(1500);

    const closed = t.close();
    await sleep(300);
    await blocker.query('commit');
    await closed;

    const job = await blocker.query<{ state: string }>(`select state from ${JOBS_SCHEMA}.job where id = $1`, [rows[0].id]);
    // Recorded through the queue's connections after the stop began: with them ended, it stayed active.
    expect(job.rows[0].state).toBe('completed');
  } finally {
    await blocker.end();
    await db.drop();
  }
}, 60_000);
