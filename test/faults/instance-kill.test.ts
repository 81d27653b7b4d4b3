import { Keypair } from '@stellar/stellar-sdk';
import { Client } from 'pg';
import { NotificationType } from '../../src/modules/notifications/notifications.entity';
import { ParticipantState } from '../../src/modules/trading/trading.entity';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { ENG_LOT } from '../helpers/lots';
import { BID_PLACED, connect, NOTIFICATION_ADDED, until, type Socket } from '../live/support';
import { REDIS_BINARY, startPrivateRedis, type PrivateRedis } from '../helpers/redis-server';
import { asTestApp, startServiceProcess, type ServiceProcess } from './service-process';
import { note } from '../helpers/notes';

/**
 * Two instances of the service as processes on one database (and, when this machine has a
 * redis-server, one private Redis between them); one of them is killed with SIGKILL.
 */
// A lot of the shortest duration (60 s) is told 15 s after its creation. At 3 s, on a machine at load 9
// (CI, 29 November), the twelve lots and the bids through X took longer than that: X took the first
// lot's notice and died with it held, which no instance takes again before its expiry (JOBS_EXPIRE_SECONDS,
// then the queue's maintenance: test/faults/held-job.test.ts).
const FINISHING_NOTICE_SECONDS = 45;

let db: TestDatabase;
let redis: PrivateRedis | null = null;
let sql: Client;
let master: Keypair;
const logSeed = Keypair.random().secret();
const processes: ServiceProcess[] = [];
const sockets: Socket[] = [];

async function instance(): Promise<ServiceProcess> {
  const env: Record<string, string> = {
    DATABASE_URL: db.url,
    MASTER_SEED: master.secret(),
    // Instances sharing a database sign one bid log with one key.
    LOG_SIGNING_SEED: logSeed,
    JOBS: 'on',
    JOBS_POLL_SECONDS: '0.5',
    FINISHING_NOTICE_SECONDS: String(FINISHING_NOTICE_SECONDS),
    ...(redis ? { REDIS_URL: redis.url, REDIS_PREFIX: 'kill:' } : {}),
  };
  const p = await startServiceProcess(env);
  processes.push(p);
  return p;
}

const asApp = (p: ServiceProcess) => asTestApp(p, master);

beforeAll(async () => {
  if (REDIS_BINARY) redis = await startPrivateRedis();
  else note('redis-server is not on PATH: the instances share no Redis, so fan-out is checked on the surviving instance alone');
  db = await createTestDatabase();
  sql = new Client({ connectionString: db.url });
  await sql.connect();
  master = Keypair.random();
}, 60_000);

afterEach(async () => {
  await Promise.all(sockets.splice(0).map((s) => s.dispose()));
  await Promise.all(processes.splice(0).map((p) => p.stop()));
});

afterAll(async () => {
  await sql?.end();
  await db?.drop();
  await redis?.kill();
});

async function lotWith(p: ServiceProcess, platform: Keypair, users: CreatedAccount[], attributes: Record<string, unknown>): Promise<string> {
  const res = await p.client.as(platform).post('/lots', { data: { type: 'lots', attributes } });
  if (res.status !== 204) throw new Error(`lot creation failed: ${res.status} ${res.text}`);
  const [{ id }] = (await sql.query<{ id: string }>('select l.id::text from lots l where l.organizer_id = $1 order by l.id desc limit 1', [platform.publicKey()])).rows;
  await sql.query(`insert into participants (lot_id, account_id, state) select $1, unnest($2::text[]), ${ParticipantState.Pending}`, [id, users.map((u) => u.id)]);
  return id;
}

const LONG = process.env.HARDENING_LONG === '1';
/** Lots whose finishing notices are scheduled on the instance that is killed. */
const LOTS = LONG ? 12 : 4;
/** Bids through the survivor after the kill. */
const AFTER_KILL = LONG ? 30 : 6;

describe('one of two instances killed', () => {
  it('during fan-out and with scheduled work on it: the other delivers every bid and fires every time-based notification, once each', async () => {
    const [x, y] = [await instance(), await instance()];
    const platform = await createPlatform(asApp(y));
    const users = [await createAccount(asApp(y), platform), await createAccount(asApp(y), platform)];
    const lotId = await lotWith(y, platform, users, ENG_LOT);
    const open = (as?: Keypair) => {
      const socket = connect(asApp(y), as);
      sockets.push(socket);
      return socket;
    };
    const feeds = [0, 1, 2].map(() => open().subscribe<{ id: string }>(BID_PLACED, { lotId }));
    const notices = await Promise.all(
      users.map(async (u) => {
        const socket = open(u.keypair);
        await socket.connected;
        return socket.subscribe<{ id: string; type: number }>(NOTIFICATION_ADDED);
      }),
    );
    // Lots created through X, whose clock schedules their finishing notices 15 s ahead: X dies before they are due.
    const lots: string[] = [];
    for (let i = 0; i < LOTS; i++) lots.push(await lotWith(x, platform, users, { ...ENG_LOT, duration: 60 }));

    const outcomes: string[] = [];
    const bid = async (p: ServiceProcess, n: number) => {
      const res = await p.client
        .as(users[n % 2].keypair)
        .post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount: String(1000 + 50 * n) } } })
        .catch((err: Error) => ({ status: `no answer (${err.message})` }));
      outcomes.push(`${p === x ? 'x' : 'y'} ${res.status}`);
    };
    let n = 0;
    // Through both while both live; X is killed while a bid of its own is in flight; then Y alone.
    for (; n < 6; n++) await bid(n % 2 ? x : y, n);
    await Promise.all([bid(x, n++), new Promise((r) => setTimeout(r, 5)).then(() => x.kill())]);
    const killedAt = Date.now();
    for (let i = 0; i < AFTER_KILL; i++, n++) await bid(y, n);

    const stored = (await sql.query<{ id: string }>('select b.id::text from bids b where b.lot_id = $1 order by b.id', [lotId])).rows.map((r) => r.id);
    expect(stored.length).toBeGreaterThanOrEqual(6 + AFTER_KILL);
    // Without Redis, Y hears only the bids it took itself (even n: even multiples of 50 above 1000).
    const heardByY = redis ? stored : (await sql.query<{ id: string }>('select b.id::text from bids b where b.lot_id = $1 and b.amount::int / 50 % 2 = 0 order by b.id', [lotId])).rows.map((r) => r.id);
    await until(() => feeds.every((f) => f.events.length >= heardByY.length), 5000, () => `${feeds.map((f) => f.events.length).join(', ')} of ${heardByY.length} bids`).catch(() => undefined);

    const type = NotificationType.RegisteredFinishingIn3h;
    const count = async () => Number((await sql.query<{ n: string }>('select count(*)::text as n from notifications where type = $1', [type])).rows[0].n);
    const deadline = Date.now() + 20_000;
    while ((await count()) < LOTS * users.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    // A copy would come from a retry or from the other instance within a few polls.
    await new Promise((r) => setTimeout(r, 1500));
    const perRecipient = (await sql.query<{ recipient: string; n: string }>('select recipient, count(*)::text as n from notifications where type = $1 group by 1', [type])).rows;
    const fired = (await sql.query<{ lot_id: string; recipient: string }>('select lot_id::text, recipient from notification_firings where type = $1', [type])).rows;
    const heard = notices.map((f) => f.events.filter((e) => e.type === type).map((e) => e.id));
    const sent = perRecipient.reduce((sum, r) => sum + Number(r.n), 0);
    note(
      `instance X killed (SIGKILL) during fan-out, with ${LOTS} lots' finishing notices scheduled on it. Bids: ${outcomes.join(', ')}; stored ${stored.length}; ` +
        `Y's 3 subscribers received ${feeds.map((f) => f.events.length).join(', ')} of ${heardByY.length}, errors ${feeds.map((f) => f.errors.length).join(', ')}. ` +
        `Notices: ${sent} of ${LOTS * users.length} sent within ${Math.round((Date.now() - killedAt) / 1000)} s of the kill, lost ${LOTS * users.length - fired.length}, doubled ${sent - fired.length}; ` +
        `its subscribers heard ${heard.map((h) => h.length).join(', ')}`,
    );
    // X's bid in flight at the kill may have committed with no instance alive to announce it: no
    // subscriber hears it live, and one resuming with `after` reads it from the database.
    const unannounced = heardByY.filter((id) => !feeds[0].events.some((e) => e.id === id));
    expect(unannounced.length).toBeLessThanOrEqual(1);
    if (unannounced.length) {
      expect(outcomes[6]).toMatch(/^x no answer/);
      const before = heardByY[heardByY.indexOf(unannounced[0]) - 1];
      const resumed = open().subscribe<{ id: string }>(BID_PLACED, { lotId, after: before });
      await until(() => resumed.events.length >= heardByY.length - heardByY.indexOf(unannounced[0]), 5000, () => `resumed with ${resumed.events.length} bids`);
      expect(resumed.events.map((e) => e.id)).toEqual(heardByY.slice(heardByY.indexOf(unannounced[0])));
    }
    for (const f of feeds) expect(f.events.map((e) => e.id)).toEqual(heardByY.filter((id) => !unannounced.includes(id)));
    expect(fired.map((r) => `${r.lot_id} ${r.recipient}`).sort()).toEqual(lots.flatMap((l) => users.map((u) => `${l} ${u.id}`)).sort());
    expect(perRecipient.map((r) => `${r.recipient} ${r.n}`).sort()).toEqual(users.map((u) => `${u.id} ${LOTS}`).sort());
    // Y ran the jobs, so its subscribers hear them, each once, with or without Redis.
    for (const [i, u] of users.entries()) {
      const ids = (await sql.query<{ id: string }>('select n.id::text from notifications n where n.type = $1 and n.recipient = $2 order by n.id', [type, u.id])).rows.map((r) => r.id);
      expect(heard[i]).toEqual(ids);
    }
  }, 90_000);
});
