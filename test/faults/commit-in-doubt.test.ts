import type { Keypair } from '@stellar/stellar-sdk';
import { Client } from 'pg';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createPlatform } from '../helpers/factories';
import { startLingeringProxy } from '../helpers/lingering-proxy';
import { ENG_LOT } from '../helpers/lots';

/**
 * Lot creation, an ORM transaction (`inTransaction`), losing its connection before and inside its
 * commit. A trigger on `lots` holds the session where the test wants it: an ordinary one inside
 * the insert, a deferred one inside the COMMIT.
 */
let db: TestDatabase;
let t: TestApp;
let admin: Client;
let platform: Keypair;

beforeAll(async () => {
  db = await createTestDatabase();
  t = await startTestApp({}, db);
  admin = new Client({ connectionString: db.url });
  await admin.connect();
  platform = await createPlatform(t);
  await admin.query(`create function test_sleep() returns trigger language plpgsql as $$ begin perform pg_sleep(3); return null; end $$`);
}, 60_000);

afterAll(async () => {
  await admin?.end();
  await t?.close();
  await db?.drop();
});

afterEach(async () => {
  await admin.query('drop trigger if exists sleep_in_insert on lots');
  await admin.query('drop trigger if exists sleep_in_commit on lots');
});

const sleepInInsert = () => admin.query('create trigger sleep_in_insert after insert on lots for each row execute function test_sleep()');
const sleepInCommit = () => admin.query('create constraint trigger sleep_in_commit after insert on lots deferrable initially deferred for each row execute function test_sleep()');
const lots = async () => (await admin.query<{ n: number }>('select count(*)::int as n from lots where organizer_id = $1', [platform.publicKey()])).rows[0].n;
const createLot = (app: TestApp) => app.client.as(platform).post('/lots', { data: { type: 'lots', attributes: ENG_LOT } });

/**
 * Sends the lot and ends the service's session once it runs `statement` (as the server would,
 * going away). The watch stops with the request: a request answered before its statement ran
 * fails here with its answer, and leaves no watcher behind to end the next test's session.
 */
async function createLotEndingAt(app: TestApp, statement: RegExp) {
  let settled = false;
  const request = createLot(app).finally(() => (settled = true));
  let ended = false;
  while (!settled && !ended) {
    const { rows } = await admin.query<{ pid: number; query: string }>(`select pid, query from pg_stat_activity where state = 'active' and pid <> pg_backend_pid() and datname = current_database()`);
    const session = rows.find((r) => statement.test(r.query));
    if (session) ended = (await admin.query('select pg_terminate_backend($1)', [session.pid]), true);
    else await new Promise((r) => setTimeout(r, 10));
  }
  const res = await request;
  if (!ended) throw new Error(`answered ${res.status} ${res.text} before ${statement} ran`);
  return res;
}

describe('an ORM transaction whose connection is lost', () => {
  it('answers 503 outcome_unknown when the connection dies inside the COMMIT', async () => {
    await sleepInCommit();
    const before = await lots();
    const res = await createLotEndingAt(t, /^COMMIT;?$/);
    expect({ status: res.status, retry: res.headers['retry-after'], errors: res.body.errors }).toEqual({
      status: 503,
      retry: '1',
      errors: [{ status: '503', code: 'outcome_unknown', title: 'Service Unavailable', detail: expect.stringContaining('may or may not have been kept'), meta: { request_id: res.headers['x-request-id'] } }],
    });
    // Ended before its commit finished: here the doubt resolved to "not kept".
    expect(await lots()).toBe(before);
  });

  it('answers 503 database_unavailable when it dies before the COMMIT was sent: nothing was kept', async () => {
    await sleepInInsert();
    const before = await lots();
    const res = await createLotEndingAt(t, /^insert into "lots"/i);
    expect({ status: res.status, code: res.body.errors?.[0]?.code }).toEqual({ status: 503, code: 'database_unavailable' });
    expect(await lots()).toBe(before);
  });

  it('never hands out again a connection its server ended, though the server closes the socket late', async () => {
    // A loaded server process sends its FATAL and exits a while later: until the socket closes,
    // node-postgres thinks the connection usable. The next request must not be given it.
    const proxy = await startLingeringProxy(db.url, 1500);
    const slow = await startTestApp({}, { url: proxy.url, drop: async () => undefined });
    try {
      await sleepInCommit();
      const before = await lots();
      expect((await createLotEndingAt(slow, /^COMMIT;?$/)).body.errors?.[0]?.code).toBe('outcome_unknown');
      await admin.query('drop trigger sleep_in_commit on lots');
      const next = await createLot(slow);
      expect({ status: next.status, errors: next.body?.errors }).toEqual({ status: 204, errors: undefined });
      expect(await lots()).toBe(before + 1);
    } finally {
      await slow.close();
      await proxy.close();
    }
  });

  it('answers outcome_unknown, not database_unavailable, when the COMMIT gets no answer within DB_ANSWER_TIMEOUT; the commit may indeed land', async () => {
    const impatient = await startTestApp({ DB_ANSWER_TIMEOUT: '1' }, db);
    try {
      await sleepInCommit();
      const before = await lots();
      const started = Date.now();
      const res = await createLot(impatient);
      expect({ status: res.status, code: res.body.errors?.[0]?.code, withinBound: Date.now() - started < 3000 }).toEqual({ status: 503, code: 'outcome_unknown', withinBound: true });
      // The server finished the COMMIT it had been sent: an answer of "not kept" would have lied.
      const deadline = Date.now() + 10_000;
      while ((await lots()) === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await lots()).toBe(before + 1);
      // The connection that got no answer was destroyed, not pooled: the service serves again at once.
      await admin.query('drop trigger sleep_in_commit on lots');
      expect((await createLot(impatient)).status).toBe(204);
    } finally {
      await impatient.close();
    }
  });
});
