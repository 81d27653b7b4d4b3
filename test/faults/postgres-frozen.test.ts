import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { Client } from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/db/embedded';
import { migrate, openDatabase } from '../../src/db/orm';
import { ParticipantState } from '../../src/modules/trading/trading.entity';
import type { TestResponse } from '../helpers/client';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { ENG_LOT } from '../helpers/lots';
import { freezePostgres } from './freeze';
import { asTestApp, logLinesFrom, startServiceProcess, type ServiceProcess } from './service-process';
import { note } from '../helpers/notes';

/**
 * The service as a process on a PostgreSQL of this file's own, which the test freezes (SIGSTOP)
 * and stops: never the machine's server. A frozen server keeps its sockets open and its kernel
 * answers for it, so only the service's own clock can end a wait.
 */
let pg: EmbeddedPostgres;
let dir: string;
let service: ServiceProcess;
let master: Keypair;
let bidders: CreatedAccount[];
let lotId: string;
let thaw: () => void = () => undefined;

/** Every answer within this while the database is frozen (DB_ANSWER_TIMEOUT is 5 s). */
const ANSWER_MS = 6000;
const READY_MS = 1000;
const FROZEN_MS = 12_000;
const RECOVERY_MS = 5000;
/** A request without an answer by then (or whose socket was dropped) is recorded as a hang. */
const HANG_MS = 20_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const asApp = (p: ServiceProcess) => asTestApp(p, master);

async function query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]> {
  const client = new Client({ connectionString: pg.url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

interface Timed {
  what: string;
  sentAt: number;
  ms: number;
  res: TestResponse | 'hang';
}

async function timed(what: string, request: Promise<TestResponse>): Promise<Timed> {
  const sentAt = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<'hang'>((r) => (timer = setTimeout(() => r('hang'), HANG_MS)));
  try {
    // A socket the service dropped is no answer either.
    const res = await Promise.race([request.catch(() => 'hang' as const), hang]);
    return { what, sentAt, ms: Date.now() - sentAt, res };
  } finally {
    clearTimeout(timer);
  }
}

const codeOf = (t: Timed) => (t.res === 'hang' ? 'hang' : (t.res.body?.errors?.[0]?.code ?? t.res.body?.errors?.[0]?.extensions?.code ?? null));
const statusOf = (t: Timed) => (t.res === 'hang' ? 'hang' : t.res.status);
const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))];

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pg-frozen-'));
  pg = await startEmbeddedPostgres({ dir });
  const orm = await openDatabase(pg.url, 2);
  await migrate(orm);
  await orm.close();
  master = Keypair.random();
  service = await startServiceProcess({
    DATABASE_URL: pg.url,
    MASTER_SEED: master.secret(),
    JOBS: 'off',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_WRITES_PER_ADDRESS: '0',
    RATE_LIMIT_WRITES_PER_ACCOUNT: '0',
    RATE_LIMIT_ACCOUNTS_PER_ADDRESS: '0',
  });
  const platform = await createPlatform(asApp(service));
  bidders = [];
  for (let i = 0; i < 4; i++) bidders.push(await createAccount(asApp(service), platform));
  const created = await service.client.as(platform).post('/lots', { data: { type: 'lots', attributes: { ...ENG_LOT, min_step: '10', max_step: '100000' } } });
  if (created.status !== 204) throw new Error(`lot creation failed: ${created.status} ${created.text}`);
  [{ id: lotId }] = await query<{ id: string }>('select id::text from lots where organizer_id = $1', [platform.publicKey()]);
  await query(`insert into participants (lot_id, account_id, state) select $1, unnest($2::text[]), ${ParticipantState.Pending}`, [lotId, bidders.map((b) => b.id)]);
}, 180_000);

afterAll(async () => {
  thaw();
  await service?.stop();
  await pg?.stop();
});

const bid = (who: CreatedAccount, amount: string) => service.client.as(who.keypair).post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount } } });
const graphqlBid = (who: CreatedAccount) =>
  service.client.as(who.keypair).graphql('mutation($lot: ID!) { placeBid(lotId: $lot, amount: "999999") { highestBid } }', { lot: lotId });

describe('PostgreSQL frozen (SIGSTOP) under a bid load', () => {
  it('answers every request within 6 s with 503 (/readyz within 1 s), is ready again soon after SIGCONT, and loses no accepted bid', async () => {
    const bids: (Timed & { who: CreatedAccount; amount: string })[] = [];
    let next = 0;
    let running = true;
    const worker = async (who: CreatedAccount) => {
      while (running) {
        const amount = (1000 + 10 * next++).toFixed(2);
        bids.push({ ...(await timed('bid', bid(who, amount))), who, amount });
        await sleep(20);
      }
    };
    const load = Promise.all(bidders.map(worker));

    await sleep(1500);
    thaw = freezePostgres(pg.dataDir);
    const frozenAt = Date.now();
    const probes: Timed[] = [];
    try {
      // Probes early in the freeze, once the pool is held by hung bids, and late in it.
      for (const at of [300, 3000, 7000]) {
        await sleep(Math.max(0, frozenAt + at - Date.now()));
        probes.push(
          ...(await Promise.all([
            timed('readyz', service.client.get('/readyz')),
            timed('lot read', service.client.get(`/lots/${lotId}`)),
            timed('graphql bid', graphqlBid(bidders[0])),
          ])),
        );
      }
      await sleep(Math.max(0, frozenAt + FROZEN_MS - Date.now()));
    } finally {
      thaw();
    }
    const thawedAt = Date.now();
    let recovered = Infinity;
    while (Date.now() - thawedAt < RECOVERY_MS + 10_000 && recovered === Infinity) {
      const ready = await timed('readyz', service.client.get('/readyz'));
      const accepted = bids.find((b) => b.sentAt >= thawedAt && statusOf(b) === 204);
      if (accepted && statusOf(ready) === 200) recovered = Math.max(accepted.sentAt + accepted.ms, Date.now()) - thawedAt;
      else await sleep(100);
    }
    running = false;
    await load;

    const load1 = loadavg()[0].toFixed(2);
    const whileFrozen = bids.filter((b) => b.sentAt >= frozenAt && b.sentAt + b.ms < thawedAt);
    const answerMs = [...whileFrozen, ...probes.filter((p) => p.what !== 'readyz')].map((t) => t.ms);
    const readyMs = probes.filter((p) => p.what === 'readyz').map((p) => p.ms);
    note(
      `frozen ${thawedAt - frozenAt} ms under ${bidders.length} bidders (load average ${load1}): ${whileFrozen.length} bids answered while frozen; ` +
        `answer while frozen p50 ${quantile(answerMs, 0.5)} ms, max ${Math.max(...answerMs)} ms; /readyz ${readyMs.join(', ')} ms; ready and serving bids ${recovered} ms after SIGCONT`,
    );

    expect(whileFrozen.length).toBeGreaterThan(0);
    // Nothing waits out the freeze: each answer comes within the bound, a 503 that says why.
    for (const t of [...whileFrozen, ...probes.filter((p) => p.what !== 'readyz')]) {
      expect({ what: t.what, status: statusOf(t), code: codeOf(t), inTime: t.ms <= ANSWER_MS }).toEqual({
        what: t.what,
        status: 503,
        code: expect.stringMatching(/^(database_unavailable|outcome_unknown)$/),
        inTime: true,
      });
    }
    for (const b of whileFrozen) expect(b.res !== 'hang' && b.res.headers['retry-after']).toBe('1');
    for (const t of probes.filter((p) => p.what === 'readyz')) {
      expect({ status: statusOf(t), body: t.res !== 'hang' && t.res.body, inTime: t.ms <= READY_MS }).toEqual({ status: 503, body: { status: 'database unavailable' }, inTime: true });
    }
    // Sent before the freeze or around the thaw, an answer may be either; never a hang or another failure.
    const unexpected = bids.filter((b) => b.ms > ANSWER_MS || ![204, 503].includes(statusOf(b) as number) || (statusOf(b) === 503 && !['database_unavailable', 'outcome_unknown'].includes(codeOf(b))));
    expect(unexpected.map((b) => `${statusOf(b)} ${codeOf(b)} ${b.ms} ms`)).toEqual([]);
    expect(recovered).toBeLessThanOrEqual(RECOVERY_MS);

    const key = (b: { who: CreatedAccount; amount: string }) => `${b.who.id} ${b.amount}`;
    const accepted = bids.filter((b) => statusOf(b) === 204).map(key);
    const inDoubt = new Set(bids.filter((b) => codeOf(b) === 'outcome_unknown').map(key));
    const stored = (await query<{ account_id: string; amount: string }>('select account_id, amount::text from bids where lot_id = $1', [lotId])).map((b) => `${b.account_id} ${b.amount}`);
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.filter((a) => !stored.includes(a))).toEqual([]);
    expect(stored.filter((b) => !accepted.includes(b) && !inDoubt.has(b))).toEqual([]);
  }, 180_000);

  it('logs the database going and coming back once each, at warn and without a stack, however many requests fail meanwhile', async () => {
    const from = service.output().length;
    await pg.stop();
    const failed = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? timed('lot read', service.client.get(`/lots/${lotId}`)) : i % 3 === 1 ? timed('bid', bid(bidders[i % 4], '999999.00')) : timed('graphql bid', graphqlBid(bidders[i % 4])))),
    );
    pg = await startEmbeddedPostgres({ dir, port: pg.port });
    const back = Date.now();
    while (Date.now() - back < RECOVERY_MS && statusOf(await timed('lot read', service.client.get(`/lots/${lotId}`))) !== 200) await sleep(100);
    await sleep(200);

    expect(failed.map((t) => codeOf(t))).toEqual(failed.map(() => 'database_unavailable'));
    const lines = logLinesFrom(service, from);
    // Nothing but these two lines: no error-level line, no stack, no line per request or per connection.
    expect(lines.map((l) => ({ level: l.level, msg: l.msg }))).toEqual([
      { level: 40, msg: 'the database is out of reach' },
      { level: 40, msg: 'the database answers again' },
    ]);
    expect(lines.filter((l) => JSON.stringify(l).includes('stack'))).toEqual([]);
  }, 120_000);
});
