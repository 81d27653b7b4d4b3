import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { freePort } from '../../src/db/embedded.host';
import { ParticipantState } from '../../src/modules/trading/trading.entity';
import type { TestApp } from '../helpers/app';
import type { TestResponse } from '../helpers/client';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { ENG_LOT } from '../helpers/lots';
import { launch, postgresPid, reapAll, sleep, sql, untilServing, type Launched } from '../smoke/launch';
import { note } from '../helpers/notes';

/** The service as `npm start` runs it by default: its own embedded PostgreSQL, whose postmaster is killed. */
let service: Launched;
let dataDir: string;
const master = Keypair.random();

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'embedded-restart-'));
  // The job queue on, as by default: its own pool meets the outage too.
  service = launch(process.execPath, ['dist/main.js'], dataDir, await freePort(), { MASTER_SEED: master.secret(), JOBS: 'on' });
  await untilServing(service);
}, 120_000);

afterAll(reapAll);

const asApp = () => ({ client: service.client, master }) as unknown as TestApp;

async function readyWithin(ms: number): Promise<number | null> {
  const started = Date.now();
  while (Date.now() - started < ms) {
    const ok = (await service.client.get('/readyz').then((r) => r.status, () => 0)) === 200;
    if (ok) return Date.now() - started <= ms ? Date.now() - started : null;
    await sleep(100);
  }
  return null;
}

describe('the embedded PostgreSQL killed (SIGKILL of its postmaster)', () => {
  it('is started again and the service is ready within 10 s under a bid load, with every accepted bid kept', async () => {
    const platform = await createPlatform(asApp());
    const bidders: CreatedAccount[] = [];
    for (let i = 0; i < 3; i++) bidders.push(await createAccount(asApp(), platform));
    const created = await service.client.as(platform).post('/lots', { data: { type: 'lots', attributes: { ...ENG_LOT, min_step: '10', max_step: '100000' } } });
    expect(created.status).toBe(204);
    const [{ id: lotId }] = await sql<{ id: string }>(dataDir, 'select id::text from lots where organizer_id = $1', [platform.publicKey()]);
    await sql(dataDir, `insert into participants (lot_id, account_id, state) select $1, unnest($2::text[]), ${ParticipantState.Pending}`, [lotId, bidders.map((b) => b.id)]);

    const sent: { who: CreatedAccount; amount: string; res: TestResponse | null }[] = [];
    let next = 0;
    let running = true;
    const worker = async (who: CreatedAccount) => {
      while (running) {
        const amount = (1000 + 10 * next++).toFixed(2);
        const res = await service.client.as(who.keypair).post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount } } }).catch(() => null);
        sent.push({ who, amount, res });
        await sleep(20);
      }
    };
    const load = Promise.all(bidders.map((b) => worker(b)));
    await sleep(1000);
    const killed = postgresPid(dataDir) as number;
    process.kill(killed, 'SIGKILL');
    const back = await readyWithin(10_000);
    await sleep(1000);
    running = false;
    await load;

    if (back === null) console.log(`not ready within 10 s; the service's last output:\n${service.output().slice(-4000)}`);
    expect(back).not.toBeNull();
    expect(postgresPid(dataDir)).not.toBe(killed);
    expect((await service.client.get('/healthz')).status).toBe(200);
    const key = (s: { who: CreatedAccount; amount: string }) => `${s.who.id} ${Number(s.amount).toFixed(2)}`;
    const accepted = sent.filter((s) => s.res?.status === 204).map(key);
    const stored = (await sql<{ account_id: string; amount: string }>(dataDir, 'select account_id, amount::text from bids where lot_id = $1', [lotId])).map((b) => `${b.account_id} ${Number(b.amount).toFixed(2)}`);
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.filter((a) => !stored.includes(a))).toEqual([]);
    const lines = service.output().split('\n').filter((l) => l.includes('embedded PostgreSQL')).map((l) => JSON.parse(l).msg);
    // One line per attempt: a first may find the killed server's last processes still ending.
    expect(lines.slice(0, 2)).toEqual(['embedded PostgreSQL ready (set DATABASE_URL to use a server of your own)', 'the embedded PostgreSQL exited; starting it again']);
    expect(lines.slice(2, -2).every((l) => /^the embedded PostgreSQL did not start again \(attempt \d\)$/.test(l))).toBe(true);
    // Killed, it was not shut down cleanly: the start that brought it back replayed its WAL, and said so.
    expect(lines.at(-2)).toMatch(/^the embedded PostgreSQL of \S+ had not been shut down cleanly, and recovered from its write-ahead log: nothing committed was lost$/);
    expect(lines.at(-1)).toBe(`the embedded PostgreSQL is back (attempt ${lines.length - 3})`);
    note(service.output().split('\n').filter((l) => l.includes('PostgreSQL')).map((l) => `${new Date(JSON.parse(l).time).toISOString()} ${JSON.parse(l).msg}`).join('\n'));
    note(`postmaster SIGKILLed under ${bidders.length} bidders: ready again after ${back} ms; ${sent.length} bids sent, ${accepted.length} accepted, all ${stored.length >= accepted.length ? 'kept' : 'NOT kept'}`);
  }, 120_000);

  it('fails /healthz while it cannot be started again, and serves once it can', async () => {
    // Files of another PostgreSQL version: no start can succeed until they are put back.
    const version = path.join(dataDir, 'pg', 'PG_VERSION');
    const original = readFileSync(version, 'utf8');
    writeFileSync(version, '9\n');
    process.kill(postgresPid(dataDir) as number, 'SIGKILL');
    try {
      const deadline = Date.now() + 60_000;
      while ((await service.client.get('/healthz')).status !== 503 && Date.now() < deadline) await sleep(200);
      expect((await service.client.get('/healthz')).body).toEqual({ status: 'embedded database cannot start' });
      expect((await service.client.get('/readyz')).status).toBe(503);
    } finally {
      writeFileSync(version, original);
    }
    expect(await readyWithin(15_000)).not.toBeNull();
    // The database may answer a moment before the supervisor's own check of it has.
    const healthyBy = Date.now() + 5000;
    while ((await service.client.get('/healthz')).status !== 200 && Date.now() < healthyBy) await sleep(100);
    expect((await service.client.get('/healthz')).status).toBe(200);
    const attempts = service.output().split('\n').filter((l) => l.includes('did not start again'));
    expect(attempts.length).toBeGreaterThanOrEqual(5);
  }, 120_000);
});
