// The `fanout` section of `npm run bench` (goals 4 and 5): `bidPlaced` subscribers of one
// lot while signed REST bids arrive at a steady rate; the delay from each bid's send to each
// subscriber, the server's CPU per delivered message and its resident memory at each phase. The
// service runs as a child process (`node dist/main.js`), the subscribers in worker threads of this
// one (bench/fanout-subscribers.mjs), so that neither's work is counted as the other's.
//
//   BENCH_FANOUT_SUBSCRIBERS=5000   subscribers per instance (a list runs each count in turn)
//   BENCH_FANOUT_RATE=10            bids per second
//   BENCH_FANOUT_SECONDS=10         how long bids are placed
//   BENCH_FANOUT_THREADS=2          threads the subscribers of one instance are spread over
//   BENCH_FANOUT_REDIS=redis://127.0.0.1:6379
//                                   two instances on this Redis, each with the subscribers above,
//                                   bids alternating between them; "0" or no answer leaves it out
//
// Baseline, same run: bench/fanout-floor.mjs, a bare socket server writing a frame of the same size
// to as many sockets at the same rate (the kernel's cost of one small TCP write, now).
//
// Standalone: `npm run build && node bench/fanout.mjs` prints this section alone.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import { connect } from 'node:net';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { freshDatabase } from './db.mjs';
import { goal } from './goals.mjs';
import { markMemory } from './memory.mjs';
import { memoryOf, signer, startService } from './service.mjs';

const require = createRequire(import.meta.url);
const { Pool } = require('pg');
const { Keypair } = require('@stellar/stellar-sdk');

const COUNTS = (process.env.BENCH_FANOUT_SUBSCRIBERS ?? '5000').split(',').map(Number);
const RATE = Number(process.env.BENCH_FANOUT_RATE ?? 10);
const SECONDS = Number(process.env.BENCH_FANOUT_SECONDS ?? 10);
const THREADS = Number(process.env.BENCH_FANOUT_THREADS ?? 2);
const REDIS = process.env.BENCH_FANOUT_REDIS ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const BIDDERS = 4;
/** The size of one `next` frame of the bench's subscription, for the floor. */
const FRAME_BYTES = 170;
/** Goal 4. */
const GOAL = { p99Ms: 60, cpuUs: 6, rssMb: 400 };

const now = () => performance.timeOrigin + performance.now();
const percentile = (sorted, p) => (sorted.length ? +sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))].toFixed(1) : null);
const rssMb = (pid) => +(memoryOf(pid).rss / 1024).toFixed(1);

/** User and system CPU seconds of a process (ticks of 1/100 s). */
function cpuOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
}

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
        res.on('end', () => resolve({ status: res.statusCode, code: res.statusCode === 204 ? null : /"code":"([^"]+)"/.exec(Buffer.concat(chunks).toString())?.[1] }));
      });
      req.on('error', reject);
      req.end(body);
    });
}

/** The subscribers of one instance, over THREADS worker threads; each answers each command once. */
function subscribers(port, lotId, count) {
  const n = Math.min(THREADS, count);
  const threads = Array.from({ length: n }, (_, t) => {
    const share = Math.floor(count / n) + (t < count % n ? 1 : 0);
    const worker = new Worker(new URL('./fanout-subscribers.mjs', import.meta.url), { workerData: { url: `ws://127.0.0.1:${port}/graphql`, lotId, count: share } });
    const pending = [];
    worker.on('message', (m) => pending.shift()?.resolve(m));
    worker.on('error', (err) => pending.splice(0).forEach((p) => p.reject(err)));
    return { worker, pending };
  });
  const ask = (command) => Promise.all(threads.map(({ worker, pending }) => new Promise((resolve, reject) => {
    pending.push({ resolve, reject });
    worker.postMessage(command);
  })));
  let stopped = null;
  return {
    ask,
    stop: () => (stopped ??= ask({ type: 'close' }).then(() => Promise.all(threads.map(({ worker }) => worker.terminate())))),
  };
}

/** One service instance with its subscribers, added to `started` as soon as it runs. */
async function instance(started, url, lotId, count, env) {
  const server = await startService(url, env);
  const s = { server, subs: null, memory: { start: rssMb(server.pid) }, failures: 0, section: `fanout, ${count} subscribers${env.REDIS_URL ? `, instance ${started.length + 1} on Redis` : ''}` };
  await markMemory(s.section, 'start', server);
  started.push(s);
  s.subs = subscribers(server.port, lotId, count);
  s.failures = (await s.subs.ask({ type: 'open' })).reduce((n, o) => n + o.failures, 0);
  s.memory.subscribed = rssMb(server.pid);
}

/** The floor: a bare server writing FRAME_BYTES to `count` sockets at RATE for SECONDS. */
export async function floor(count) {
  const child = spawn(process.execPath, [fileURLToPath(new URL('./fanout-floor.mjs', import.meta.url)), count, RATE, SECONDS, FRAME_BYTES], { stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = [];
  let wake = () => undefined;
  let buffer = '';
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    for (let i; (i = buffer.indexOf('\n')) >= 0; buffer = buffer.slice(i + 1)) lines.push(JSON.parse(buffer.slice(0, i)));
    wake();
  });
  const line = async (n) => {
    while (lines.length < n) await new Promise((resolve) => (wake = resolve));
    return lines[n - 1];
  };
  const { port } = await line(1);
  const sockets = [];
  // In batches, as the subscribers connect: thousands of connections at once overflow the backlog.
  for (let start = 0; start < count; start += 200) {
    const batch = Array.from({ length: Math.min(200, count - start) }, () => new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(socket));
      socket.once('error', reject);
      socket.on('data', () => undefined);
      sockets.push(socket);
    }));
    await Promise.all(batch);
  }
  let timer;
  const late = new Promise((resolve, reject) => (timer = setTimeout(() => reject(new Error('the floor did not finish')), (SECONDS + 60) * 1000)));
  try {
    return await Promise.race([line(2), late]);
  } finally {
    clearTimeout(timer);
    for (const socket of sockets) socket.destroy();
    child.kill();
  }
}

/** `count` subscribers on each instance (one, or two sharing Redis); bids alternate between them. */
async function scenario(count, instances) {
  const db = await freshDatabase('bench_fanout');
  const pool = new Pool({ connectionString: db.url, max: 2 });
  const agents = [];
  const started = [];
  try {
    // The first instance migrates the database; the second starts once it has.
    // Every start on one database holds its keys (docs/operations.md).
    const keys = { MASTER_SEED: Keypair.random().secret(), LOG_SIGNING_SEED: Keypair.random().secret() };
    const env = instances === 1 ? keys : { REDIS_URL: REDIS, REDIS_PREFIX: `bench-${randomUUID()}:`, ...keys };
    const first = await startService(db.url, env);
    await first.stop();
    const { users, lotId } = await seed(pool);
    for (let i = 0; i < instances; i++) await instance(started, db.url, lotId, count, env);
    const bidders = started.flatMap(({ server }) => {
      const agent = new Agent({ keepAlive: true, maxSockets: BIDDERS * 4 });
      agents.push(agent);
      return users.map((u) => bidder(u, server.port, agent, lotId));
    });

    // A subscription is live once its first event arrives: one bid that everyone must see.
    const warm = await bidders[0]('1000.00');
    if (warm.status !== 204) throw new Error(`the warm-up bid answered ${warm.status} ${warm.code}`);
    const warmed = async () => (await Promise.all(started.map((s) => s.subs.ask({ type: 'warmed' })))).flat().reduce((n, w) => n + w.warmed, 0);
    const live = count * instances - started.reduce((n, s) => n + s.failures, 0);
    for (let i = 0; i < 600 && (await warmed()) < live; i++) await sleep(50);
    const total = RATE * SECONDS;
    await Promise.all(started.map((s) => s.subs.ask({ type: 'measure', bids: total })));
    for (const s of started) s.memory.warmedUp = rssMb(s.server.pid);

    const peaks = started.map((s) => s.memory.warmedUp);
    const sampler = setInterval(() => started.forEach((s, k) => (peaks[k] = Math.max(peaks[k], rssMb(s.server.pid)))), 100);
    const cpuBefore = started.map((s) => cpuOf(s.server.pid));
    const benchBefore = process.cpuUsage();
    const sentAt = new Float64Array(total).fill(NaN);
    const requests = [];
    const t0 = performance.now();
    for (let i = 0; i < total; i++) {
      const wait = t0 + (i * 1000) / RATE - performance.now();
      if (wait > 0) await sleep(wait);
      sentAt[i] = now();
      // Bid i goes to instance i % instances, from one of its bidders.
      const r = bidders[(i % instances) * BIDDERS + (Math.floor(i / instances) % BIDDERS)]((1001 + i).toFixed(2));
      requests.push(r.then((res) => ({ ...res, ms: now() - sentAt[i] })));
    }
    const outcomes = await Promise.all(requests);
    const accepted = outcomes.map((o) => o.status === 204);
    const expected = accepted.filter(Boolean).length * live;
    const delivered = async () => (await Promise.all(started.map((s) => s.subs.ask({ type: 'delivered' })))).flat().reduce((n, d) => n + d.delivered, 0);
    for (let i = 0; i < 100 && (await delivered()) < expected; i++) await sleep(50);
    clearInterval(sampler);
    const wall = (performance.now() - t0) / 1000;
    const bench = process.cpuUsage(benchBefore);

    const perInstance = [];
    for (const [k, s] of started.entries()) {
      const cpu = cpuOf(s.server.pid);
      const user = cpu.user - cpuBefore[k].user;
      const system = cpu.system - cpuBefore[k].system;
      s.memory.afterBids = rssMb(s.server.pid);
      await markMemory(s.section, 'after the bids', s.server);
      s.memory.peakSampled = Math.max(peaks[k], s.memory.afterBids);
      s.memory.peakKernel = +(memoryOf(s.server.pid).hwm / 1024).toFixed(1);
      const collected = (await s.subs.ask({ type: 'collect' })).flat();
      const delays = [];
      let missing = 0;
      for (const { arrivals } of collected) {
        const share = arrivals.length / total;
        for (let i = 0; i < total; i++) {
          if (!accepted[i]) continue;
          for (let n = 0; n < share; n++) {
            const at = arrivals[i * share + n];
            if (Number.isNaN(at)) missing++;
            else delays.push(at - sentAt[i]);
          }
        }
      }
      delays.sort((x, y) => x - y);
      await s.subs.stop();
      await sleep(2000);
      s.memory.subscribersGone = rssMb(s.server.pid);
      await markMemory(s.section, 'subscribers gone', s.server);
      perInstance.push({
        subscribers: count,
        subscribeFailures: s.failures,
        clientFailures: collected.flatMap((c) => c.failures),
        delivered: delays.length,
        missing,
        delayFromSendMs: { median: percentile(delays, 0.5), p99: percentile(delays, 0.99), max: percentile(delays, 1) },
        serverCores: +((user + system) / wall).toFixed(2),
        // The server's CPU time per delivered message, its share of the bids' own handling included.
        serverCpuPerDeliveryUs: delays.length ? { total: +(((user + system) * 1e6) / delays.length).toFixed(1), user: +((user * 1e6) / delays.length).toFixed(1), system: +((system * 1e6) / delays.length).toFixed(1) } : null,
        serverRssMb: s.memory,
      });
    }
    const bidMs = outcomes.filter((o) => o.status === 204).map((o) => o.ms).sort((x, y) => x - y);
    return {
      instances,
      bidsPerSecond: RATE,
      seconds: SECONDS,
      bidsAccepted: accepted.filter(Boolean).length,
      // Bids that overtake each other (an open loop under load) are refused as too low.
      bidsRefused: outcomes.filter((o) => o.status !== 204).reduce((by, o) => ({ ...by, [`${o.status} ${o.code}`]: (by[`${o.status} ${o.code}`] ?? 0) + 1 }), {}),
      bidRequestMs: { median: percentile(bidMs, 0.5), p99: percentile(bidMs, 0.99) },
      // This process: bidders and subscriber threads, while the bids were placed and delivered.
      benchCores: +((bench.user + bench.system) / 1e6 / wall).toFixed(2),
      perInstance,
    };
  } finally {
    for (const s of started) await s.subs?.stop().catch(() => undefined);
    for (const s of started) await s.server.stop();
    agents.forEach((a) => a.destroy());
    await pool.end();
    await db.drop();
  }
}

async function redisAnswers() {
  if (REDIS === '0') return false;
  const { Redis } = require('ioredis');
  const client = new Redis(REDIS, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/** Goal 4's lines, one per instance of each scenario: each figure with its bound, same-run baseline and ✓ or ✗. */
function goals(result, floorUs) {
  const lines = [];
  for (const [name, scenario] of Object.entries(result)) {
    if (!scenario?.perInstance) continue;
    scenario.perInstance.forEach((r, k) => {
      const cpu = r.serverCpuPerDeliveryUs?.total ?? null;
      const checks = [
        { text: `p99 ${r.delayFromSendMs.p99} ms from the bid's send ≤ ${GOAL.p99Ms} ms (before the fan-out work: 109 ms)`, ok: r.delayFromSendMs.p99 !== null && r.delayFromSendMs.p99 <= GOAL.p99Ms },
        { text: `${r.missing} missing, ${r.subscribeFailures} refused subscriptions`, ok: r.missing === 0 && r.subscribeFailures === 0 },
        { text: `${cpu} µs of server CPU per delivery ≤ ${GOAL.cpuUs} µs (a bare socket write, same run: ${floorUs.perWriteUs} µs, ×${cpu === null ? '—' : +(cpu / floorUs.perWriteUs).toFixed(2)})`, ok: cpu !== null && cpu <= GOAL.cpuUs },
        { text: `RSS peak ${r.serverRssMb.peakKernel} MB ≤ ${GOAL.rssMb} MB (idle: ${r.serverRssMb.start} MB)`, ok: r.serverRssMb.peakKernel <= GOAL.rssMb },
      ];
      lines.push(goal(`goal 4, ${name}${scenario.instances > 1 ? `, instance ${k + 1}` : ''}`, checks));
    });
  }
  return lines;
}

export async function fanoutBench() {
  // Other work on the machine shows in every delay: the load average is part of the result.
  const result = { database: process.env.DATABASE_URL ? 'server' : 'embedded', server: 'child process: node dist/main.js', loadAverage: loadavg().map((l) => +l.toFixed(2)) };
  const withRedis = await redisAnswers();
  for (const n of COUNTS) {
    result[`${n} subscribers`] = await scenario(n, 1);
    result[`2 × ${n} subscribers on Redis`] = withRedis ? await scenario(n, 2) : `left out: no Redis answers at ${REDIS}`;
  }
  result.floor = await floor(Math.max(...COUNTS));
  result.loadAverageAfter = loadavg().map((l) => +l.toFixed(2));
  result.goals = goals(result, result.floor);
  for (const line of result.goals) console.error(line);
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
