// The live-subscription stall attacks, rerun at their original scale against the service's default limits:
// 3. 500 anonymous `lotUpdated` subscriptions from one address, each with 12 aliased `bids` lists
//    and `participants`, on a lot with 60 bids, then one bid;
// 4. 500 anonymous `bidPlaced(after: "0")` subscriptions on a lot with 384 bids;
// while GET / is sampled every 20 ms and the server's resident memory every 100 ms. Prints GET /
// p99 and the RSS peak of each against the goals.
//
//   node bench/stall-live.mjs   (after npm run build)
//
// The service runs as a child process (bench/service.mjs) on a database of its own (bench/db.mjs).
// `npm run bench` runs it as its `stallLive` section.
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { freshDatabase } from './db.mjs';
import { httpCaller, sampleRoot, warmRoot } from './root-probe.mjs';
import { goal } from './goals.mjs';
import { cpuOf, signer, startService } from './service.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');
const { Keypair } = require('@stellar/stellar-sdk');
const WebSocket = require('ws');

const GOAL_P99_MS = 100;
const GOAL_RSS_MB = 1024;
const SUBSCRIPTIONS = 500;
/** WS_MAX_SUBSCRIPTIONS's default: the subscriptions are spread over sockets of 20. */
const PER_SOCKET = 20;

const lists = Array.from({ length: 12 }, (_, i) => `b${i}: bids { id amount bidderId createdAt }`).join(' ');
const FINDING_3 = `subscription ($lotId: ID!) { lotUpdated(lotId: $lotId) { id highestBid ${lists} participants { id accountId state } } }`;
const FINDING_4 = 'subscription ($lotId: ID!, $after: ID) { bidPlaced(lotId: $lotId, after: $after) { id lotId amount highestBid bidderId placedByProxy createdAt } }';

/** A platform, two users, and two auctions with `bids` bids each (rising by 50 from 1050), in SQL. */
async function seed(url, bidCounts) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const platform = Keypair.random();
    const users = [Keypair.random(), Keypair.random()];
    await client.query('insert into accounts (id, account_type, platform_id, email_verified, phone_verified) values ($1, 2, $1, true, true)', [platform.publicKey()]);
    for (const u of users) await client.query('insert into accounts (id, account_type, platform_id, email_verified, phone_verified) values ($1, 0, $2, true, true)', [u.publicKey(), platform.publicKey()]);
    const now = Date.now();
    const lots = [];
    for (const count of bidCounts) {
      const { rows } = await client.query(
        `insert into lots (lot_type, lot_state, currency, start_price, buy_now_price, deposit, min_step, max_step, start_time, duration, end_time,
                           organizer_id, publisher_id, details, created_at, updated_at)
         values (1, 1, 'USD', 1000, 0, 0, 50, 1000, $2::timestamptz, 86400, $3::timestamptz, $1, $1, '{"lot_name":"bench"}'::jsonb, now(), now()) returning id`,
        [platform.publicKey(), new Date(now - 3600_000), new Date(now + 86400_000)],
      );
      const lotId = rows[0].id;
      const participants = await client.query(`insert into participants (lot_id, account_id, state) select $1, u, 0 from unnest($2::text[]) as u returning id, account_id`, [lotId, users.map((u) => u.publicKey())]);
      const [a, b] = participants.rows;
      await client.query(
        `insert into bids (lot_id, participant_id, account_id, amount, created_at)
         select $1, case when g % 2 = 0 then $2::bigint else $3::bigint end, case when g % 2 = 0 then $4 else $5 end, 1000 + 50 * g, now() - interval '1 hour' + g * interval '1 second'
         from generate_series(1, $6) as g`,
        [lotId, a.id, b.id, a.account_id, b.account_id, count],
      );
      lots.push({ id: lotId, bids: count });
    }
    return { platform, users, lots };
  } finally {
    await client.end();
  }
}

const call = httpCaller({ maxSockets: 4, timeoutMs: 60000 });

const sample = (port, pid, done, minMs) => sampleRoot(call, port, pid, done, minMs);

/** `count` subscriptions over sockets of PER_SOCKET; tallies per subscription what arrives, without parsing large frames. */
async function subscribeMany(port, count, query, variables) {
  const subs = Array.from({ length: count }, () => ({ nexts: 0, error: null, bytes: 0 }));
  const sockets = [];
  for (let n = 0; n < count; n += PER_SOCKET) {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws');
    sockets.push(ws);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const acked = new Promise((resolve) => ws.once('message', resolve));
    ws.send(JSON.stringify({ type: 'connection_init' }));
    await acked;
    ws.on('message', (data) => {
      // Every message starts with `{"id":"<n>","type":"…"`.
      const head = data.toString('latin1', 0, 40);
      const m = /^\{"id":"(\d+)","type":"(\w+)"/.exec(head);
      if (!m) return;
      const sub = subs[Number(m[1])];
      sub.bytes += data.length;
      if (m[2] === 'next') sub.nexts++;
      else if (m[2] === 'error') sub.error = JSON.parse(data.toString()).payload[0]?.extensions?.code ?? 'error';
    });
    for (let i = n; i < Math.min(count, n + PER_SOCKET); i++) ws.send(JSON.stringify({ id: String(i), type: 'subscribe', payload: { query, variables } }));
  }
  return { subs, close: () => sockets.forEach((ws) => ws.terminate()) };
}

const until = async (test, ms) => {
  const end = performance.now() + ms;
  while (!test() && performance.now() < end) await sleep(20);
  return test();
};

async function finding3(service, seeded) {
  const lot = seeded.lots[0];
  const { subs, close } = await subscribeMany(service.port, SUBSCRIPTIONS, FINDING_3, { lotId: lot.id });
  try {
    await sleep(1000);
    const refused = subs.filter((s) => s.error).length;
    const sign = signer(seeded.users[0]);
    const body = JSON.stringify({ data: { type: 'bid_requests', attributes: { amount: String(1000 + 50 * (lot.bids + 2)) } } });
    const target = `/lots/${lot.id}/bid_requests`;
    const delivered = (async () => {
      const placed = await call(service.port, 'POST', target, body, sign(target, body));
      if (placed.status !== 204) throw new Error(`the bid was refused: ${placed.status}`);
      await until(() => subs.every((s) => s.error || s.nexts > 0), 30_000);
    })();
    const under = await sample(service.port, service.pid, delivered, 1000);
    await delivered;
    const bytes = subs.reduce((n, s) => n + s.bytes, 0);
    const admitted = subs.filter((s) => !s.error).length;
    const codes = [...new Set(subs.filter((s) => s.error).map((s) => s.error))];
    const line = goal(`finding 3: ${SUBSCRIPTIONS} lotUpdated × 12 aliased bids lists, one bid (${admitted} admitted, ${refused} refused ${codes.join('/')}, ${(bytes / 1e6).toFixed(1)} MB pushed)`, [
      { text: `GET / p99 ${under.p99} ms (goal ≤ ${GOAL_P99_MS} ms, ${under.failed} of ${under.checks} failed)`, ok: under.p99 <= GOAL_P99_MS && under.failed === 0 },
      { text: `server RSS peak ${under.rssPeakMb} MB (goal < ${GOAL_RSS_MB} MB)`, ok: under.rssPeakMb < GOAL_RSS_MB },
    ]);
    return { admitted, refused, codes, megabytesPushed: +(bytes / 1e6).toFixed(1), ...under, goal: line };
  } finally {
    close();
  }
}

async function finding4(service, seeded) {
  const lot = seeded.lots[1];
  let handle;
  const cpuBefore = cpuOf(service.pid);
  const replayed = (async () => {
    handle = await subscribeMany(service.port, SUBSCRIPTIONS, FINDING_4, { lotId: lot.id, after: '0' });
    await until(() => handle.subs.every((s) => s.error || s.nexts >= lot.bids), 60_000);
  })();
  try {
    const under = await sample(service.port, service.pid, replayed, 1000);
    await replayed;
    // CPU time is what the machine's load changes least: the server's, per subscription (the GET / samples included).
    const cpuMsPerSubscription = +(((cpuOf(service.pid) - cpuBefore) * 1000) / SUBSCRIPTIONS).toFixed(2);
    const complete = handle.subs.filter((s) => s.nexts === lot.bids).length;
    const events = handle.subs.reduce((n, s) => n + s.nexts, 0);
    const line = goal(`finding 4: ${SUBSCRIPTIONS} bidPlaced(after: "0") on ${lot.bids} bids (${complete} replayed whole, ${events} events)`, [
      { text: `GET / p99 ${under.p99} ms (goal ≤ ${GOAL_P99_MS} ms, ${under.failed} of ${under.checks} failed)`, ok: under.p99 <= GOAL_P99_MS && under.failed === 0 },
      { text: `server RSS peak ${under.rssPeakMb} MB (goal < ${GOAL_RSS_MB} MB)`, ok: under.rssPeakMb < GOAL_RSS_MB },
    ]);
    return { complete, events, ...under, cpuMsPerSubscription, goal: `${line}; server CPU ${cpuMsPerSubscription} ms per subscription` };
  } finally {
    handle?.close();
  }
}

/** The section for `npm run bench` (bench/suite.mjs): the figures and their goal lines. */
export async function stallLiveBench() {
  const db = await freshDatabase('stall_live');
  // The service's own per-address limits: the attack is one address, as in the issue.
  const service = await startService(db.url, {
    WS_MAX_CONNECTIONS_PER_ADDRESS: '100',
    WS_MAX_SUBSCRIPTIONS_PER_ADDRESS: '500',
    WS_SUBSCRIPTION_BUDGET_PER_ADDRESS: '20000',
  });
  try {
    const seeded = await seed(db.url, [60, 384]);
    const results = { loadAverage: loadavg().map((l) => +l.toFixed(2)) };
    await warmRoot(call, service.port);
    results.baseline = await sample(service.port, service.pid, Promise.resolve(), 1000);
    results.finding3 = await finding3(service, seeded);
    results.finding4 = await finding4(service, seeded);
    results.loadAverageAfter = loadavg().map((l) => +l.toFixed(2));
    results.goals = [results.finding3.goal, results.finding4.goal];
    console.error(`\nLive subscription stalls, load average ${results.loadAverage.join(' ')}; GET / before: p99 ${results.baseline.p99} ms`);
    for (const line of results.goals) console.error(line);
    return results;
  } finally {
    await service.stop();
    await db.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const results = await stallLiveBench();
  console.log(JSON.stringify(results, null, 2));
  process.exitCode = results.goals.every((l) => l.startsWith('✓')) ? 0 : 1;
}
