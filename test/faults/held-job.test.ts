import { Keypair } from '@stellar/stellar-sdk';
import { Client } from 'pg';
import { NotificationType } from '../../src/modules/notifications/notifications.entity';
import { ParticipantState } from '../../src/modules/trading/trading.entity';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createAccount, createPlatform } from '../helpers/factories';
import { ENG_LOT } from '../helpers/lots';
import { until } from '../live/support';
import { asTestApp, startServiceProcess, type ServiceProcess } from './service-process';

/**
 * An instance that dies while it runs a lot's job cannot fail it: the job stays taken until the
 * queue's expiry. A lot of 60 s is told of its end 3 s after its creation; its row is held `for
 * update` meanwhile, so that the instance's run of the notice waits on it, and the instance is
 * killed then.
 */
const EXPIRE_SECONDS = 5;

let db: TestDatabase;
let sql: Client;
const master = Keypair.random();
const logSeed = Keypair.random().secret();
const processes: ServiceProcess[] = [];

const instance = async () => {
  const p = await startServiceProcess({
    DATABASE_URL: db.url,
    MASTER_SEED: master.secret(),
    LOG_SIGNING_SEED: logSeed,
    JOBS: 'on',
    JOBS_POLL_SECONDS: '0.5',
    JOBS_EXPIRE_SECONDS: String(EXPIRE_SECONDS),
    FINISHING_NOTICE_SECONDS: '57',
  });
  processes.push(p);
  return p;
};

const asApp = (p: ServiceProcess) => asTestApp(p, master);

beforeAll(async () => {
  db = await createTestDatabase();
  sql = new Client({ connectionString: db.url });
  await sql.connect();
});

afterAll(async () => {
  await Promise.all(processes.map((p) => p.stop()));
  await sql?.end();
  await db?.drop();
});

describe('an instance killed while it runs a lot job', () => {
  it("leaves the job to another instance after JOBS_EXPIRE_SECONDS, whose notices go out once", async () => {
    const x = await instance();
    const platform = await createPlatform(asApp(x));
    const users = [await createAccount(asApp(x), platform), await createAccount(asApp(x), platform)];
    const res = await x.client.as(platform).post('/lots', { data: { type: 'lots', attributes: { ...ENG_LOT, duration: 60 } } });
    expect(res.status).toBe(204);
    const [{ id: lotId }] = (await sql.query<{ id: string }>('select id::text from lots where organizer_id = $1', [platform.publicKey()])).rows;
    await sql.query(`insert into participants (lot_id, account_id, state) select $1, unnest($2::text[]), ${ParticipantState.Pending}`, [lotId, users.map((u) => u.id)]);

    await sql.query('begin');
    await sql.query('select 1 from lots where id = $1 for update', [lotId]);
    const taken = async () => (await sql.query("select 1 from pgboss.job where name = 'lot-finishing' and state = 'active' and data->>'lotId' = $1", [lotId])).rowCount;
    // Read outside the held transaction's snapshot: each query of this client sees what committed before it.
    await until(async () => (await taken()) === 1, 20_000, () => 'the finishing notice taken by the instance');
    await x.kill();
    await sql.query('rollback');
    const killedAt = Date.now();

    await instance();
    const type = NotificationType.RegisteredFinishingIn3h;
    const sent = async () => (await sql.query<{ recipient: string }>('select recipient from notifications where type = $1 order by recipient', [type])).rows.map((r) => r.recipient);
    // The expiry, then the queue's maintenance (every half of it), then the retry's delay (10 s).
    await until(async () => (await sent()).length >= users.length, 1000 * (2 * EXPIRE_SECONDS + 20), () => 'the finishing notices');
    expect(Date.now() - killedAt).toBeLessThan(1000 * (2 * EXPIRE_SECONDS + 20));
    await new Promise((r) => setTimeout(r, 1500));
    expect(await sent()).toEqual(users.map((u) => u.id).sort());
  }, 120_000);
});
