// The `fanout` section of `npm run bench`: many GraphQL `bidPlaced` subscribers on one lot while
// signed REST bids arrive at a steady rate; the delay from each bid to each subscriber, and the
// server's resident memory. The service runs as a child process (`node dist/main.js`), so the
// subscribers' own client load is not counted in its memory.
//
//   BENCH_FANOUT_SUBSCRIBERS=1000,5000  subscriber counts, one fresh server and database each
//   BENCH_FANOUT_RATE=20                bids per second: a busy auction's closing minutes (issue 7),
//                                       not a quiet one; 5 and 10 are worth a run each too
//   BENCH_FANOUT_SECONDS=10             how long bids are placed
//
// Delays are measured two ways, bracketing the commit: from the bid's `createdAt` (stamped inside
// the transaction, before the commit: an upper bound of commit → arrival) and from the moment the
// bidder received its 204 (after the commit: a lower bound, negative when the event wins the race).
// The clients share this one process, so their own parsing is part of the measured delay.
//
// Standalone: `npm run build && node bench/fanout.mjs` prints this section alone.
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { freshDatabase } from './db.mjs';
import { cpuOf, memoryOf, signer, startService } from './service.mjs';

const require = createRequire(import.meta.url);
const { Pool } = require('pg');
const { Keypair } = require('@stellar/stellar-sdk');
const { createClient } = require('graphql-ws');
const WebSocket = require('ws');

const COUNTS = (process.env.BENCH_FANOUT_SUBSCRIBERS ?? '1000,5000').split(',').map(Number);
const RATE = Number(process.env.BENCH_FANOUT_RATE ?? 20);
const SECONDS = Number(process.env.BENCH_FANOUT_SECONDS ?? 10);
const BIDDERS = 4;
const SUBSCRIPTION = 'subscription ($lotId: ID!) { bidPlaced(lotId: $lotId) { id amount createdAt } }';

const now = () => performance.timeOrigin + performance.now();
const percentile = (sorted, p) => (sorted.length ? +sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(1) : null);
const mb = (kb) => +(kb / 1024).toFixed(1);

/** A platform, the bidders and one open auction in which they all participate. */
async function seed(pool) {
  const platform = Keypair.random().publicKey();
  const users = Array.from({ length: BIDDERS }, () => Keypair.random());
  await pool.query(`insert into accounts (id, account_type, platform_id) values ($1, 2, $1)`, [platform]);
  await pool.query(`insert into accounts (id, account_type, platform_id) select unnest($1::text[]), 4, $2`, [users.map((u) => u.publicKey()), platform]);
  const { rows } = await pool.query(
    `insert into lots (lot_type, currency, start_price, buy_now_price, deposit, min_step, max_step, start_time, duration, end_time, organizer_id, publisher_id, details)
     values (1, 'USD', 1000, 0, 0, 0.01, 1000000000, now() - interval '1 minute', 86400, now() + interval '1 day', $1, $1, '{}') returning id`,
    [platform],
  );
  const lotId = String(rows[0].id);
  await pool.query(`insert into participants (lot_id, account_id, state) select $1, unnest($2::text[]), 0`, [lotId, users.map((u) => u.publicKey())]);
  return { users, lotId };
}

function bidder(keypair, port, agent, lotId) {
  const headersFor = signer(keypair);
  const target = `/lots/${lotId}/bid_requests`;
  return (amount) =>
    new Promise((resolve, reject) => {
      const body = Buffer.from(JSON.stringify({ data: { type: 'bid_requests', attributes: { amount } } }));
      const req = request({ host: '127.0.0.1', port, path: target, method: 'POST', headers: headersFor(target, body), agent }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const at = now();
          const code = res.statusCode === 204 ? null : /"code":"([^"]+)"/.exec(Buffer.concat(chunks).toString())?.[1];
          resolve({ status: res.statusCode, code, at });
        });
      });
      req.on('error', reject);
      req.end(body);
    });
}

/** Opens the subscribers, in batches so that the connections do not all arrive at once. */
async function subscribe(port, lotId, count, onBid) {
  const clients = [];
  let failures = 0;
  for (let start = 0; start < count; start += 200) {
    const batch = Array.from({ length: Math.min(200, count - start) }, (_, k) => {
      const n = start + k;
      return new Promise((resolve) => {
        const client = createClient({ url: `ws://127.0.0.1:${port}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true, on: { connected: () => resolve() } });
        clients.push(client);
        client.subscribe(
          { query: SUBSCRIPTION, variables: { lotId } },
          {
            next: ({ data }) => onBid(n, data.bidPlaced, now()),
            error: () => {
              failures++;
              resolve();
            },
            complete: () => {},
          },
        );
      });
    });
    await Promise.all(batch);
  }
  return { clients, failures };
}

async function scenario(subscribers) {
  const db = await freshDatabase('bench_fanout');
  const server = await startService(db.url);
  const pool = new Pool({ connectionString: db.url, max: 2 });
  const agent = new Agent({ keepAlive: true, maxSockets: BIDDERS * 4 });
  let clients = [];
  let sampler;
  try {
    const { users, lotId } = await seed(pool);
    const idle = memoryOf(server.pid).rss;
    const bidders = users.map((u) => bidder(u, server.port, agent, lotId));

    // Per amount: when the bid was stamped, when its 204 came back, and each subscriber's arrival.
    const arrivals = new Map();
    const fromCreated = [];
    let delivered = 0;
    const sub = await subscribe(server.port, lotId, subscribers, (n, bid, at) => {
      let a = arrivals.get(bid.amount);
      if (!a) arrivals.set(bid.amount, (a = { createdAt: null, answeredAt: null, at: new Float64Array(subscribers).fill(NaN) }));
      a.createdAt ??= Date.parse(bid.createdAt);
      if (Number.isNaN(a.at[n])) delivered++;
      a.at[n] = at;
    });
    clients = sub.clients;

    // A subscription is live once its first event arrives: one bid that everyone must see.
    const warm = await bidders[0]('1000.00');
    if (warm.status !== 204) throw new Error(`the warm-up bid answered ${warm.status}`);
    for (let i = 0; i < 600 && delivered < subscribers - sub.failures; i++) await sleep(50);
    const warmedUp = delivered;
    if (warmedUp === 0) throw new Error('no subscriber received the warm-up bid');
    arrivals.clear();
    delivered = 0;
    const withSubscribers = memoryOf(server.pid).rss;

    let peak = withSubscribers;
    sampler = setInterval(() => (peak = Math.max(peak, memoryOf(server.pid).rss)), 100);
    const total = RATE * SECONDS;
    const requests = [];
    const cpuBefore = { server: cpuOf(server.pid), bench: process.cpuUsage() };
    const started = performance.now();
    for (let i = 0; i < total; i++) {
      const wait = started + (i * 1000) / RATE - performance.now();
      if (wait > 0) await sleep(wait);
      const amount = (1001 + i).toFixed(2);
      requests.push(
        bidders[i % BIDDERS](amount).then((r) => {
          if (r.status !== 204) return { ok: false, refusal: `${r.status} ${r.code}` };
          const a = arrivals.get(amount) ?? { createdAt: null, answeredAt: null, at: new Float64Array(subscribers).fill(NaN) };
          a.answeredAt = r.at;
          arrivals.set(amount, a);
          return { ok: true, ms: r.at - (started + (i * 1000) / RATE + performance.timeOrigin) };
        }),
      );
    }
    const outcomes = await Promise.all(requests);
    const accepted = outcomes.filter((o) => o.ok).length;
    const expected = accepted * warmedUp;
    for (let i = 0; i < 100 && delivered < expected; i++) await sleep(50);
    clearInterval(sampler);
    const end = memoryOf(server.pid);
    const wall = (performance.now() - started) / 1000;
    const benchCpu = process.cpuUsage(cpuBefore.bench);
    const serverCpu = cpuOf(server.pid) - cpuBefore.server;
    const cpu = {
      server: +(serverCpu / wall).toFixed(2),
      subscribersAndBidders: +((benchCpu.user + benchCpu.system) / 1e6 / wall).toFixed(2),
    };

    const fromAnswer = [];
    for (const a of arrivals.values()) {
      for (const at of a.at) {
        if (Number.isNaN(at)) continue;
        if (a.createdAt !== null) fromCreated.push(at - a.createdAt);
        if (a.answeredAt !== null) fromAnswer.push(at - a.answeredAt);
      }
    }
    fromCreated.sort((x, y) => x - y);
    fromAnswer.sort((x, y) => x - y);
    const bidMs = outcomes.filter((o) => o.ok).map((o) => o.ms).sort((x, y) => x - y);
    return {
      subscribers,
      subscribeFailures: sub.failures,
      bidsPerSecond: RATE,
      seconds: SECONDS,
      bidsAccepted: accepted,
      // Bids that overtake each other (an open loop under load) are refused as too low.
      bidsRefused: outcomes.filter((o) => !o.ok).reduce((by, o) => ({ ...by, [o.refusal]: (by[o.refusal] ?? 0) + 1 }), {}),
      delivered,
      expected,
      delayFromCreatedAtMs: { median: percentile(fromCreated, 0.5), p99: percentile(fromCreated, 0.99), max: percentile(fromCreated, 1) },
      delayFrom204Ms: { median: percentile(fromAnswer, 0.5), p99: percentile(fromAnswer, 0.99), max: percentile(fromAnswer, 1) },
      bidRequestMs: { median: percentile(bidMs, 0.5), p99: percentile(bidMs, 0.99) },
      // Cores busy while the bids were placed and delivered (1.0: one core all the time).
      cpuCores: cpu,
      // The server's CPU time per delivered message, the bids' own handling included.
      serverCpuPerDeliveryUs: delivered ? +((serverCpu * 1e6) / delivered).toFixed(1) : null,
      serverRssMb: { idle: mb(idle), withSubscribers: mb(withSubscribers), peakSampled: mb(Math.max(peak, end.rss)), peakKernel: mb(end.hwm), end: mb(end.rss) },
      targets: { p99Below100ms: subscribers <= 1000 ? percentile(fromCreated, 0.99) < 100 : undefined, rssBelow300Mb: mb(end.hwm) < 300 },
    };
  } finally {
    // A failure mid-run must surface as itself, not as the sampler reading a stopped server.
    clearInterval(sampler);
    await Promise.all(clients.map((c) => c.dispose()));
    agent.destroy();
    await pool.end();
    await server.stop();
    await db.drop();
  }
}

export async function fanoutBench() {
  // Other work on the machine shows in every delay: the load average is part of the result.
  const result = { database: process.env.DATABASE_URL ? 'server' : 'embedded', server: 'child process: node dist/main.js', loadAverage: loadavg().map((l) => +l.toFixed(2)) };
  for (const n of COUNTS) result[`${n} subscribers`] = await scenario(n);
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  fanoutBench()
    .then((r) => console.log(JSON.stringify({ fanout: r }, null, 2)))
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
