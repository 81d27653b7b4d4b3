import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/db/embedded';
import { migrate, openDatabase } from '../../src/db/orm';
import { ParticipantState } from '../../src/modules/trading/trading.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import type { TestResponse } from '../helpers/client';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { note } from '../helpers/notes';
import { connect, LOT_UPDATED, ready, until } from '../live/support';

/**
 * A private PostgreSQL for this file: stopping it takes the database away from this service
 * only, never from the other test files.
 */
let pg: EmbeddedPostgres;
let dir: string;
let t: TestApp;
let bidders: CreatedAccount[];
let lotId: string;

const RECOVERY_MS = 5000;
/** A request that takes longer than this counts as a hang. */
const HANG_MS = 10_000;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'pg-fault-'));
  pg = await startEmbeddedPostgres({ dir });
  const orm = await openDatabase(pg.url, 2);
  await migrate(orm);
  await orm.close();
  t = await startTestApp({}, { url: pg.url, drop: async () => undefined });
  const platform = await createPlatform(t);
  bidders = [];
  for (let i = 0; i < 4; i++) bidders.push(await createAccount(t, platform));
  lotId = (await createLot(t, platform, { ...ENG_LOT, min_step: '10', max_step: '100000' })).id;
  await query(`insert into participants (lot_id, account_id, state) select $1, unnest($2::text[]), ${ParticipantState.Pending}`, [lotId, bidders.map((b) => b.id)]);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await pg?.stop();
});

async function query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]> {
  const client = new Client({ connectionString: pg.url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The answer, or `hang` when none came within HANG_MS (the socket is left to the server's close). */
async function within(res: Promise<TestResponse>): Promise<TestResponse | 'hang'> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<'hang'>((r) => (timer = setTimeout(() => r('hang'), HANG_MS)));
  try {
    return await Promise.race([res, hang]);
  } finally {
    clearTimeout(timer);
  }
}

interface Sent {
  who: CreatedAccount;
  amount: string;
  sentAt: number;
  doneAt: number;
  res: TestResponse | 'hang';
}

describe('PostgreSQL stopped during a bid load', () => {
  it('answers 503 with the error body while it is down, recovers within 5 s of its return, and loses no accepted bid', async () => {
    const sent: Sent[] = [];
    let next = 0;
    let running = true;
    const worker = async (who: CreatedAccount) => {
      while (running) {
        const amount = (1000 + 10 * next++).toFixed(2);
        const sentAt = Date.now();
        const res = await within(t.client.as(who.keypair).post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount } } }));
        sent.push({ who, amount, sentAt, doneAt: Date.now(), res });
        await sleep(20);
      }
    };
    const load = Promise.all(bidders.map(worker));

    await sleep(1000);
    await pg.stop();
    const down = Date.now();
    await sleep(1500);
    const ready = await within(t.client.get('/readyz'));
    const graphql = await within(t.client.as(bidders[0].keypair).graphql('mutation($lot: ID!) { placeBid(lotId: $lot, amount: "999999") { highestBid } }', { lot: lotId }));
    const whileDown = sent.filter((s) => s.sentAt > down);

    pg = await startEmbeddedPostgres({ dir, port: pg.port });
    const back = Date.now();
    let recovered = Infinity;
    while (Date.now() - back < RECOVERY_MS + 5000 && recovered === Infinity) {
      const accepted = sent.find((s) => s.sentAt >= back && s.res !== 'hang' && s.res.status === 204);
      const readyAgain = await within(t.client.get('/readyz'));
      if (accepted && readyAgain !== 'hang' && readyAgain.status === 200) recovered = Math.max(accepted.doneAt, Date.now()) - back;
      else await sleep(100);
    }
    await sleep(500);
    running = false;
    await load;

    expect(ready !== 'hang' && { status: ready.status, body: ready.body }).toEqual({ status: 503, body: { status: 'database unavailable' } });
    expect(graphql !== 'hang' && graphql.body.errors?.[0]?.extensions).toMatchObject({ code: 'database_unavailable', status: 503 });
    expect(whileDown.length).toBeGreaterThan(0);
    const answeredWhileDown = whileDown.filter((d) => d.doneAt < back);
    expect(answeredWhileDown.length).toBeGreaterThan(0);
    for (const s of answeredWhileDown) {
      expect(s.res !== 'hang' && { status: s.res.status, type: s.res.headers['content-type'], retry: s.res.headers['retry-after'], error: s.res.body?.errors?.[0] }).toEqual({
        status: 503,
        type: 'application/vnd.api+json',
        retry: '1',
        error: { status: '503', code: 'database_unavailable', title: 'Service Unavailable', detail: expect.any(String), meta: { request_id: expect.stringMatching(/\S/) } },
      });
    }
    // Around the stop and the start an answer may be either; never a hang, a 500 or another refusal.
    const unexpected = sent.filter((s) => s.res === 'hang' || ![204, 400, 503].includes(s.res.status) || (s.res.status === 400 && s.res.body.errors[0].code !== 'bid_too_low'));
    expect(unexpected.map((s) => (s.res === 'hang' ? 'hang' : `${s.res.status} ${s.res.text}`))).toEqual([]);
    expect(recovered).toBeLessThanOrEqual(RECOVERY_MS);

    const key = (s: Sent) => `${s.who.id} ${s.amount}`;
    const accepted = sent.filter((s) => s.res !== 'hang' && s.res.status === 204).map(key);
    // A bid whose commit lost its connection may have been kept; it must have said so.
    const inDoubt = new Set(sent.filter((s) => s.res !== 'hang' && s.res.body?.errors?.[0]?.code === 'outcome_unknown').map(key));
    const stored = (await query<{ account_id: string; amount: string }>('select account_id, amount::text from bids where lot_id = $1', [lotId])).map((b) => `${b.account_id} ${b.amount}`);
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.filter((a) => !stored.includes(a))).toEqual([]);
    expect(stored.filter((b) => !accepted.includes(b) && !inDoubt.has(b))).toEqual([]);
    const statuses: Record<string, number> = {};
    for (const s of sent) statuses[s.res === 'hang' ? 'hang' : s.res.status] = (statuses[s.res === 'hang' ? 'hang' : s.res.status] ?? 0) + 1;
    note(
      `PostgreSQL stopped for ${back - down} ms under a load of ${bidders.length} bidders: ${sent.length} bids, statuses ${JSON.stringify(statuses)}; ` +
        `${answeredWhileDown.length} answered while down, all 503; readyz 503; recovered ${recovered} ms after the database's return; ` +
        `accepted ${accepted.length}, answered outcome_unknown ${inDoubt.size} (of them stored ${stored.filter((b) => inDoubt.has(b)).length}), stored ${stored.length}, bids lost: 0, refused but stored: 0; faults survived: 1`,
    );
  }, 120_000);
});

describe('PostgreSQL stopped while a lotUpdated subscription reads the lot', () => {
  it('ends that subscription with database_unavailable, and one made once the database is back follows the lot', async () => {
    const socket = connect(t);
    try {
      const before = socket.subscribe<{ highestBid: string }>(LOT_UPDATED, { lotId });
      await ready(before, () => t.app.services.live.publishLotChanged(lotId));
      await pg.stop();
      // A change another instance announces (through Redis) while this one's database is gone: the read of the lot fails.
      t.app.services.live.publishLotChanged(lotId);
      const failure = await before.failure(HANG_MS);
      expect(failure).toMatchObject({ extensions: { code: 'database_unavailable', status: 503 } });
      expect(failure.extensions.stacktrace).toBeUndefined();

      pg = await startEmbeddedPostgres({ dir, port: pg.port });
      const deadline = Date.now() + HANG_MS;
      for (let r = await within(t.client.get('/readyz')); r === 'hang' || r.status !== 200; r = await within(t.client.get('/readyz'))) {
        if (Date.now() > deadline) throw new Error('the service was not ready again within 10 s of the database');
        await sleep(100);
      }
      const after = socket.subscribe<{ highestBid: string }>(LOT_UPDATED, { lotId });
      await ready(after, () => t.app.services.live.publishLotChanged(lotId));
      const [{ amount: highest }] = await query<{ amount: string }>('select max(amount)::text as amount from bids where lot_id = $1', [lotId]);
      const amount = (Number(highest) + 100).toFixed(2);
      const placed = await t.client.as(bidders[1].keypair).post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount } } });
      expect(placed.status).toBe(204);
      await until(() => after.events.some((e) => e.highestBid === amount), HANG_MS, () => `the lot with its highest bid ${amount}`);
      expect(after.errors).toEqual([]);
    } finally {
      await socket.dispose();
    }
  }, 120_000);
});

