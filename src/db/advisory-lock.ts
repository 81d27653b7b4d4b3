import { Client } from 'pg';

/**
 * Runs `fn` holding the session advisory lock `name` on a connection kept for it alone, so that
 * instances starting together on one database take turns at a setup that is not safe to race (the
 * migrations, the job queue's tables). A process that dies holding it frees it with its session.
 */
export async function underAdvisoryLock<T>(clientUrl: string, name: string, fn: () => Promise<T>): Promise<T> {
  const lock = new Client({ connectionString: clientUrl });
  lock.on('error', () => undefined);
  await lock.connect();
  try {
    await lock.query('select pg_advisory_lock(hashtextextended($1, 0))', [name]);
    return await fn();
  } finally {
    await lock.end();
  }
}
