import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Keypair } from '@stellar/stellar-sdk';
import { Money } from '../../src/core/money';
import { Bid } from '../../src/modules/bids/bids.entity';
import { Participant } from '../../src/modules/trading/trading.entity';
import { startServiceProcess, type ServiceProcess } from '../faults/service-process';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { closeAll, openRaw, type RawSocket } from '../live/raw-socket';
import { auction, bid, until } from '../live/support';

// Issue 26, findings 3 and 4, scaled down: ten attackers at once, each from addresses of its own,
// against the service as its own process with its default limits (the test's clients and Jest
// would otherwise share its event loop). Each guard has an assertion that fails without it:
// - the subscription budget (ws.budget.ts): some of each attacker's subscriptions are refused;
// - Lot.bids' bound: with a history longer than it, each list of an event holds the newest 100
//   bids (costed at the flat 10 of old, the events are not all delivered within 20 s either);
// - the execution shared per selection (live.fanout.ts): the live bid executes once per event
//   and selection, not once per subscriber (auction_live_executions_total).
const ATTACKERS = 10;
const AMPLIFIED_EACH = 60;
const REPLAYS_EACH = 20;
const BIDS = 30;
/** Bids older than the attack's, written as rows: the lot's history is longer than Lot.bids' bound. */
const HISTORY = 100;
const SHOWN_BIDS = 100;
/** WS_MAX_SUBSCRIPTIONS's default: an attacker spreads its subscriptions over sockets. */
const PER_SOCKET = 20;
// Liveness, not speed (bench/stall-live.mjs measures p99): the attack adds at most a second to the
// slowest GET / the service gave just before it, on the machine as loaded as it is then. CI runs
// other files beside this one: on a 2-core machine three times slower than the one this was written
// on, at load 10–13, the slowest GET / of the attack took 589–829 ms with every guard in place.
const CEILING_MS = 1000;
/** GET / answers timed before the attack, after the warm-up: the machine's own slowest answer. */
const BASELINE_ANSWERS = 40;

let db: TestDatabase;
let t: TestApp;
let service: ServiceProcess;
const LOG_SEED = Keypair.random().secret();
let platform: Awaited<ReturnType<typeof createPlatform>>;
let accounts: CreatedAccount[];
beforeAll(async () => {
  db = await createTestDatabase();
  // Seeds through an app of its own on the same database; the attack goes to the service process.
  // One log key for both: the service process records its key as the log's, and the app bids too.
  t = await startTestApp({ LOG_SIGNING_SEED: LOG_SEED }, db);
  platform = await createPlatform(t);
  accounts = [await createAccount(t, platform), await createAccount(t, platform)];
  service = await startServiceProcess({ DATABASE_URL: db.url, MASTER_SEED: t.master.secret(), LOG_SIGNING_SEED: LOG_SEED, JOBS: 'off' });
}, 90_000);
afterAll(async () => {
  await service?.stop();
  await t?.close();
  await db?.drop();
});

const lists = Array.from({ length: 12 }, (_, i) => `b${i}: bids { id amount bidderId createdAt }`).join(' ');
const AMPLIFIED = `subscription ($lotId: ID!) { lotUpdated(lotId: $lotId) { id highestBid ${lists} participants { id accountId state } } }`;
const REPLAY = 'subscription ($lotId: ID!, $after: ID) { bidPlaced(lotId: $lotId, after: $after) { id lotId amount highestBid bidderId placedByProxy createdAt } }';

/**
 * GET / in a loop from a process of its own, so that the attackers' clients in this one do not
 * delay its measurements: the latency of each answer, and the statuses other than 200.
 */
const PROBE = `
const http = require('node:http');
const agent = new http.Agent({ keepAlive: true });
let ms = [];
let baseline = [];
const failed = [];
let done = false;
let phase = 'warm';
process.stdin.on('end', () => (done = true)).resume();
(async () => {
  while (!done) {
    const started = performance.now();
    const status = await new Promise((resolve) =>
      http.get({ host: '127.0.0.1', port: Number(process.env.PROBE_PORT), path: '/', agent }, (res) => res.resume().on('end', () => resolve(res.statusCode))).on('error', () => resolve(0)),
    );
    ms.push(performance.now() - started);
    if (status !== 200) failed.push(status);
    // The first answers (a new connection, code paths run for the first time) are no measurement.
    if (phase === 'warm' && ms.length === 5) {
      phase = 'baseline';
      ms = [];
    } else if (phase === 'baseline' && ms.length === ${BASELINE_ANSWERS}) {
      phase = 'attack';
      baseline = ms;
      ms = [];
      process.stdout.write('ready\\n');
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  process.stdout.write(JSON.stringify({ baseline, ms, failed }), () => process.exit(0));
})();
`;

function startProbe(port: number) {
  const child = spawn(process.execPath, ['-e', PROBE], { env: { ...process.env, PROBE_PORT: String(port) }, stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  const exited = once(child, 'exit');
  return {
    ready: () => until(() => out.startsWith('ready\n'), 20_000, () => 'the probe to warm up and time the baseline'),
    async stop(): Promise<{ baseline: number[]; ms: number[]; failed: number[] }> {
      child.stdin.end();
      await exited;
      return JSON.parse(out.slice('ready\n'.length));
    },
  };
}

const opened: RawSocket[] = [];
afterEach(() => closeAll(opened));

/** `count` subscriptions of `query` from `address`, over as many sockets as the per-socket cap needs. */
async function attack(address: string, query: string, variables: Record<string, unknown>, count: number): Promise<{ socket: RawSocket; id: string }[]> {
  const subscriptions: { socket: RawSocket; id: string }[] = [];
  for (let n = 0; n < count; n += PER_SOCKET) {
    const socket = await openRaw(service.port, { address });
    opened.push(socket);
    for (let i = n; i < Math.min(count, n + PER_SOCKET); i++) {
      socket.subscribe(String(i), query, variables);
      subscriptions.push({ socket, id: String(i) });
    }
  }
  return subscriptions;
}

const errorOf = (s: { socket: RawSocket; id: string }) => s.socket.messages.find((m) => m.id === s.id && m.type === 'error')?.payload[0]?.extensions?.code;

/** Live events executed so far by the service process, as its metrics count them. */
async function executions(): Promise<number> {
  const res = await service.client.get('/metrics');
  const line = /^auction_live_executions_total (\d+)/m.exec(res.text);
  if (!line) throw new Error(`no auction_live_executions_total in GET /metrics: ${res.status}`);
  return Number(line[1]);
}

/**
 * Writes `count` bids of the lot's participants as rows, older than any the service places, below
 * its start price; answers the id of the newest.
 */
async function oldHistory(lotId: string, count: number): Promise<string> {
  const em = t.orm.em.fork();
  const participants = await em.find(Participant, { lotId }, { orderBy: { id: 'asc' } });
  for (let i = 0; i < count; i++) {
    const p = participants[i % participants.length];
    em.create(Bid, { lotId, participantId: p.id, accountId: p.accountId, amount: new Money(String(1 + i)) });
  }
  await em.flush();
  const [newest] = await em.find(Bid, { lotId }, { orderBy: { id: 'desc' }, limit: 1 });
  return newest.id;
}

describe('live subscriptions cannot amplify a bid into a stall', () => {
  it('refuses or answers every subscription of ten amplifying attackers while GET / keeps answering within a second of its slowest answer before them', async () => {
    const [bidder, rival] = accounts;
    const lotId = await auction(t, platform, [bidder.id, rival.id]);
    // The replays start after it, at the bids placed through the service.
    const replayAfter = await oldHistory(lotId, HISTORY);
    for (let i = 0; i < BIDS; i++) await bid(t, accounts[i % 2].keypair, lotId, { amount: String(1000 + 50 * i) });

    const probe = startProbe(service.port);
    await probe.ready();
    const failure = await (async () => {
      const attacks = await Promise.all(
        Array.from({ length: ATTACKERS }, async (_, k) => {
          // Each finding from an address of its own: the replays are cheap, and meet the budget of their own.
          const [amplified, replays] = await Promise.all([attack(`127.0.3.${k + 1}`, AMPLIFIED, { lotId }, AMPLIFIED_EACH), attack(`127.0.4.${k + 1}`, REPLAY, { lotId, after: replayAfter }, REPLAYS_EACH)]);
          return { amplified, replays };
        }),
      );
      const amplified = attacks.flatMap((a) => a.amplified);
      const replays = attacks.flatMap((a) => a.replays);
      const replayedIds = (s: { socket: RawSocket; id: string }) => s.socket.nexts(s.id).map((p) => p.data?.bidPlaced?.id);
      // Every replay either was refused or replayed the whole history.
      await until(() => replays.every((s) => errorOf(s) || replayedIds(s).length >= BIDS), 20_000, () => 'every replay to be answered');
      // Every amplified subscription is refused, or running by now (it would have been refused at once).
      await until(() => amplified.filter((s) => errorOf(s)).length > 0, 5000, () => 'the budget to refuse');
      await new Promise((r) => setTimeout(r, 300));

      const executedBefore = await executions();
      const placed = await service.client.as(bidder.keypair).post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount: String(1000 + 50 * BIDS) } } });
      expect(placed.status).toBe(204);
      const highest = `${1000 + 50 * BIDS}.00`;
      const changed = (s: { socket: RawSocket; id: string }) => s.socket.nexts(s.id).some((p) => p.data?.lotUpdated?.highestBid === highest);
      await until(() => amplified.every((s) => errorOf(s) || changed(s)), 20_000, () => 'every amplified subscription to be refused or answered');
      const ids = (await t.orm.em.fork().find(Bid, { lotId }, { orderBy: { id: 'asc' } })).map((b) => b.id);
      const replayed = ids.slice(HISTORY);
      await until(() => replays.every((s) => errorOf(s) || replayedIds(s).length >= replayed.length), 20_000, () => 'every replay to hear the live bid');
      // The lot's change, executed once for the admitted subscribers (one selection, one view),
      // and the bid, once for the 200 replays: not once per subscriber.
      expect((await executions()) - executedBefore).toBeLessThanOrEqual(2);
      // Each of the twelve lists of an event holds the newest bids up to the bound, the live one last.
      const running = amplified.filter((s) => !errorOf(s));
      for (const s of running) {
        const event = s.socket.nexts(s.id).find((p) => p.data?.lotUpdated?.highestBid === highest).data.lotUpdated;
        const lists = Array.from({ length: 12 }, (_, i) => event[`b${i}`].map((b: { id: string }) => b.id));
        expect(lists).toEqual(Array.from({ length: 12 }, () => ids.slice(-SHOWN_BIDS)));
      }

      const refused = amplified.filter((s) => errorOf(s));
      expect(new Set(refused.map(errorOf))).toEqual(new Set(['subscription_budget_exceeded']));
      // Each address's budget admits some of its attacker's subscriptions and refuses the rest.
      for (const a of attacks) expect([a.amplified.some((s) => errorOf(s)), a.amplified.some((s) => !errorOf(s))]).toEqual([true, true]);
      for (const s of replays) {
        expect(errorOf(s)).toBeUndefined();
        expect(replayedIds(s)).toEqual(replayed);
        // Anonymous: no bidder shown.
        expect(s.socket.nexts(s.id).every((p) => p.data.bidPlaced.bidderId === null)).toBe(true);
      }
    })().then(
      () => null,
      (err: unknown) => err,
    );
    const latencies = await probe.stop();
    if (failure) throw failure;
    expect(latencies.failed).toEqual([]);
    expect(latencies.ms.length).toBeGreaterThan(10);
    expect(Math.max(...latencies.ms)).toBeLessThanOrEqual(CEILING_MS + Math.max(...latencies.baseline));
  }, 60_000);
});
