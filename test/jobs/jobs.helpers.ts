import type { Keypair } from '@stellar/stellar-sdk';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/db';

/** Two instances of the service on one database, both working the job queue. */
export interface TwoInstances {
  a: TestApp;
  b: TestApp;
  db: TestDatabase;
  close(): Promise<void>;
}

export const JOBS_ENV = { JOBS: 'on', JOBS_POLL_SECONDS: '0.5' };

export async function startTwoInstances(env: Record<string, string> = {}): Promise<TwoInstances> {
  const db = await createTestDatabase();
  const a = await startTestApp({ ...JOBS_ENV, ...env }, db);
  const b = await startTestApp({ ...JOBS_ENV, ...env, MASTER_SEED: a.master.secret() }, db);
  return {
    a,
    b,
    db,
    async close() {
      await Promise.all([a.close(), b.close()]);
      await db.drop();
    },
  };
}

/** Polls `probe` until it answers true or the deadline passes (then fails with `what`). */
export async function waitFor(what: string, probe: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface NotificationRow {
  recipient: string;
  type: number;
  meta: Record<string, string>;
}

/** The notifications of some types, straight from the database, sorted by type, recipient and meta. */
export async function notificationsOf(t: TestApp, types: number[]): Promise<NotificationRow[]> {
  const rows = await t.orm.em
    .fork()
    .getConnection()
    .execute<NotificationRow[]>(`select recipient, type, meta from notifications where type in (${types.map(Number).join(', ')})`);
  const key = (r: NotificationRow) => `${r.type} ${r.recipient} ${JSON.stringify(r.meta)}`;
  return rows.map((r) => ({ recipient: r.recipient, type: r.type, meta: r.meta })).sort((x, y) => key(x).localeCompare(key(y)));
}

/** The expected rows in the order of `notificationsOf`. */
export function expected(rows: NotificationRow[]): NotificationRow[] {
  const key = (r: NotificationRow) => `${r.type} ${r.recipient} ${JSON.stringify(r.meta)}`;
  return [...rows].sort((x, y) => key(x).localeCompare(key(y)));
}

/** Jobs of a queue that are due and not finished (waiting, running or to be retried). */
export async function openJobs(t: TestApp, queue: string): Promise<number> {
  const [row] = await t.orm.em
    .fork()
    .getConnection()
    .execute<{ n: string }[]>(`select count(*) as n from pgboss.job where name = ? and state < 'completed' and start_after <= now()`, [queue]);
  return Number(row.n);
}

/** Jobs of a queue that completed. */
export async function completedJobs(t: TestApp, queue: string): Promise<number> {
  const [row] = await t.orm.em
    .fork()
    .getConnection()
    .execute<{ n: string }[]>(`select count(*) as n from pgboss.job where name = ? and state = 'completed'`, [queue]);
  return Number(row.n);
}

export const starBody = (lotId: string) => ({ data: { type: 'lots', id: lotId } });

export async function star(t: TestApp, who: Keypair, lotId: string): Promise<void> {
  const res = await t.client.as(who).post(`/accounts/${who.publicKey()}/stars`, starBody(lotId));
  if (res.status !== 201) throw new Error(`starring failed: ${res.status} ${res.text}`);
}
