// `npm run soak -- [--minutes N] [--base URL] [--clients N] [--log FILE] [--pid PID]`: mixed API
// traffic from several clients at once against a running service (accounts, JWTs, lots,
// participations, deposits, bids, messages, documents, GraphQL queries and subscriptions), then a
// verdict: no 5xx, no time-out, no refusal the traffic did not expect, every accepted bid delivered
// to every subscriber of its lot, no error in the service's log (--log), the service still up, and
// its memory not climbing (goal 5). Every --rss-seconds it samples the service's heap
// after the latest full collection (its /metrics; METRICS_TOKEN when it is not on this host) and,
// with --pid, its resident memory; the heap after full collections is what tells a leak, and fails
// the soak when the median of the last third of its samples is more than 10% above the middle
// third's. RSS is judged by the same rule and printed beside it; it decides only when the heap
// figure is missing.
// The master seed comes from MASTER_SEED or DATA_DIR/master.seed, as for `npm run demo`.
import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { memoryOf, metricOf } from './service.mjs';

const require = createRequire(import.meta.url);
const { Keypair } = require('@stellar/stellar-sdk');
const { createClient } = require('graphql-ws');
const WebSocket = require('ws');
const { Api, multipartPayload } = require('../dist/cli/api.js');
const { createCast, newCast } = require('../dist/cli/demo-cast.js');
const { createLots } = require('../dist/cli/demo-lots.js');
const { trade } = require('../dist/cli/demo-trading.js');
const { expectStatus } = require('../dist/cli/resources.js');
const { carPicture } = require('../dist/cli/png.js');
const { readMasterKeypair } = require('../dist/auth/master.js');
const { loadConfig } = require('../dist/config.js');

const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    base: { type: 'string', default: `http://127.0.0.1:${process.env.PORT ?? 8080}` },
    clients: { type: 'string', default: '8' },
    subscribers: { type: 'string', default: '20' },
    log: { type: 'string' },
    pid: { type: 'string' },
    'rss-seconds': { type: 'string', default: '60' },
  },
});
const BASE = args.base.replace(/\/$/, '');
const DEADLINE = Date.now() + Number(args.minutes) * 60_000;
const TIMEOUT_MS = 30_000;

const stats = { byOp: {}, statuses: {}, serverErrors: [], timeouts: [], unexpected: [], memory: [] };

function record(op, status, ms) {
  const s = (stats.byOp[op] ??= { count: 0, latencies: [] });
  s.count++;
  s.latencies.push(ms);
  stats.statuses[status] = (stats.statuses[status] ?? 0) + 1;
}

/** One request, timed, with a time-out; `expected` lists the statuses (and error codes) this step may meet. */
async function call(op, api, method, target, body, expected) {
  const started = performance.now();
  let timer;
  const timeout = new Promise((resolve) => (timer = setTimeout(() => resolve('timeout'), TIMEOUT_MS)));
  const send = body?.bytes ? api.send(method, target, body) : api.json(method, target, body);
  const res = await Promise.race([send, timeout]).finally(() => clearTimeout(timer));
  if (res === 'timeout') {
    stats.timeouts.push(`${op}: ${method} ${target}`);
    return null;
  }
  record(op, res.status, performance.now() - started);
  const code = res.body?.errors?.[0]?.code;
  if (res.status >= 500) stats.serverErrors.push(`${op}: ${method} ${target} → ${res.status} ${code ?? ''}`);
  else if (!expected.some((e) => e === res.status || e === `${res.status} ${code}`)) stats.unexpected.push(`${op}: ${method} ${target} → ${res.status} ${code ?? JSON.stringify(res.body).slice(0, 200)}`);
  return res;
}

const pick = (list) => list[randomInt(list.length)];

/** The marketplace the clients share: the demo's cast and lots, and who may bid where. */
async function setUp(api) {
  const master = readMasterKeypair(loadConfig());
  if (!master) throw new Error('no master seed: set MASTER_SEED, or DATA_DIR to the service data directory');
  const cast = newCast();
  await createCast(api, master, cast);
  const staff = api.as(cast.admin.keypair);
  const lots = await createLots(staff);
  await trade(api, staff, cast, lots);
  const auctions = lots.filter((l) => l.vehicle.auction).slice(0, 4);
  const bidders = auctions.map((lot) => ({ lot, who: [cast.alice.keypair, cast.bob.keypair] }));
  const platformId = cast.platform.keypair.publicKey();
  return { cast, staff, lots, auctions, bidders, platformId, accepted: new Map(auctions.map((l) => [l.id, 0])) };
}

const OPERATIONS = [
  [20, 'browse', async (api, m) => {
    await call('browse', api, 'GET', `/lots?filter[maker]=${encodeURIComponent(pick(m.lots).vehicle.maker)}&sort=-created_at&page[limit]=20`, undefined, [200]);
    await call('browse', api, 'GET', `/lots/${pick(m.lots).id}?include=bids`, undefined, [200]);
  }],
  [15, 'graphql', async (api, m) => {
    const res = await call('graphql', api, 'POST', '/graphql', { query: `{ lot(id: "${pick(m.lots).id}") { id highestBid endTime bids { amount } } lots(first: 10) { nodes { id details } } }` }, [200]);
    if (res?.body?.errors) stats.unexpected.push(`graphql: ${JSON.stringify(res.body.errors).slice(0, 200)}`);
  }],
  [30, 'bid', async (api, m) => {
    const { lot, who } = pick(m.bidders);
    const current = await call('bid', api, 'GET', `/lots/${lot.id}`, undefined, [200]);
    if (!current) return;
    const { highest_bid: highest, start_price: start, min_step: step } = current.body.data.attributes;
    const steps = 1 + randomInt(3);
    const amount = (Number(highest) > 0 ? Number(highest) + Number(step) * steps : Number(start) + Number(step) * (steps - 1)).toFixed(2);
    // Another client may have bid meanwhile: then this one is too low, as the contract says.
    const res = await call('bid', api.as(pick(who)), 'POST', `/lots/${lot.id}/bid_requests`, { data: { type: 'bid_requests', attributes: { lot_id: Number(lot.id), amount } } }, [204, '400 bid_too_low']);
    if (res?.status === 204) m.accepted.set(lot.id, m.accepted.get(lot.id) + 1);
  }],
  [10, 'message', async (api, m) => {
    const from = pick([m.cast.alice, m.cast.bob]);
    const lot = pick(m.auctions);
    const text = `Is the ${lot.vehicle.maker} ${lot.vehicle.model} still available for inspection? (${randomBytes(3).toString('hex')})`;
    const doc = { data: { type: 'messages', attributes: { sender: from.keypair.publicKey(), receiver: m.cast.admin.keypair.publicKey(), lot_id: Number(lot.id), text } } };
    await call('message', api.as(from.keypair), 'POST', '/messages', doc, [204]);
    await call('message', m.staff, 'GET', `/messages/unread?filter[lot_id]=${lot.id}`, undefined, [200]);
  }],
  [8, 'document', async (api, m) => {
    const owner = pick([m.cast.alice, m.cast.bob]);
    const form = new FormData();
    form.append('file', new Blob([carPicture([randomInt(256), randomInt(256), randomInt(256)])], { type: 'image/png' }), 'damage.png');
    form.append('file[attributes]', JSON.stringify({ document_type: 'private', owners: [owner.keypair.publicKey()], expires: '1d' }));
    const as = api.as(owner.keypair);
    const res = await call('document', as, 'POST', '/documents', await multipartPayload(form), [201]);
    if (res?.status === 201) await call('document', as, 'GET', `/documents/${res.body.data.id}`, undefined, [200]);
  }],
  [12, 'account', async (api, m) => {
    // A newcomer: an account, a JWT, its refresh, then a participation whose deposit staff mark paid.
    const keypair = Keypair.random();
    const id = keypair.publicKey();
    const password = randomBytes(12).toString('base64url');
    const attributes = { account_type: 'user', platform_id: m.platformId, first_name: 'Soak', last_name: 'Tester', email: `soak-${id.slice(1, 12).toLowerCase()}@soak.example`, password, currency: 'EUR' };
    const created = await call('account', api.as(keypair), 'POST', '/accounts', { data: { type: 'accounts', id, attributes } }, [201]);
    if (created?.status !== 201) return;
    const jwt = await call('account', api, 'POST', '/jwt', { data: { type: 'jwt', attributes: { account_id: id, password } } }, [201]);
    if (jwt?.status !== 201) return;
    const bearer = api.withToken(jwt.body.data.attributes.token);
    await call('account', bearer, 'PATCH', '/jwt', undefined, [201]);
    await call('account', bearer, 'GET', `/accounts/${id}`, undefined, [200]);
    const { lot, who } = pick(m.bidders);
    const joined = await call('account', api.as(keypair), 'POST', `/lots/${lot.id}/participation_requests`, { data: { type: 'participation_requests', attributes: { lot_id: Number(lot.id), buy_now: false } } }, [204]);
    if (joined?.status !== 204) return;
    const pending = await call('account', m.staff, 'GET', `/deposits?filter[lot_id]=${lot.id}&filter[state]=pending`, undefined, [200]);
    for (const deposit of (pending?.body?.data ?? []).filter((d) => d.attributes.account_id === id)) {
      const paid = await call('account', m.staff, 'PATCH', `/deposits/${deposit.id}`, { data: { type: 'deposits', id: deposit.id, attributes: { state: 'paid' } } }, [200]);
      if (paid?.status === 200) who.push(keypair);
    }
  }],
  [2, 'lot', async (api, m) => {
    // The demo's catalogue: a photo and a lot for each of its vehicles, counted as one step.
    const started = performance.now();
    m.lots.push(...(await createLots(m.staff)));
    record('lot', 204, performance.now() - started);
  }],
];

const TOTAL_WEIGHT = OPERATIONS.reduce((n, [w]) => n + w, 0);
function nextOperation() {
  let r = randomInt(TOTAL_WEIGHT);
  for (const op of OPERATIONS) if ((r -= op[0]) < 0) return op;
  return OPERATIONS[0];
}

async function client(api, m) {
  while (Date.now() < DEADLINE) {
    const [, name, run] = nextOperation();
    try {
      await run(api, m);
    } catch (err) {
      stats.unexpected.push(`${name}: ${err.message}`);
    }
  }
}

/** Anonymous bidPlaced subscribers on the busiest lots; each counts what it receives. */
function subscribe(lots, n) {
  const subs = [];
  for (let i = 0; i < n; i++) {
    const lot = lots[i % lots.length];
    const socket = createClient({ url: `${BASE.replace(/^http/, 'ws')}/graphql`, webSocketImpl: WebSocket, retryAttempts: 0 });
    const sub = { lot, received: 0, error: null, socket };
    socket.subscribe(
      { query: `subscription { bidPlaced(lotId: "${lot.id}") { id amount } }` },
      { next: () => sub.received++, error: (e) => (sub.error = String(e?.reason ?? e?.message ?? e)), complete: () => undefined },
    );
    subs.push(sub);
  }
  return subs;
}

/**
 * Waits until the service runs `n` live subscriptions (its /metrics), up to 30 s: a bid accepted
 * before a subscriber is listening is not one it could have been sent. A fixed second did not
 * always do: in a 30-minute soak on a loaded machine, 5 of a lot's 50 subscribers ended one bid
 * short of the other 45, as subscribers that were not listening yet when its first bid came.
 */
async function subscribed(n) {
  for (let waited = 0; waited < 30_000; waited += 100) {
    const live = await metricOf(BASE, 'auction_live_subscriptions');
    // A service whose /metrics this host may not read gets the second the soak used to wait.
    if (live === null) return new Promise((r) => setTimeout(r, 1000));
    if (live >= n) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  stats.unexpected.push(`subscribers: fewer than ${n} live after 30 s`);
}

const minute = () => +((Date.now() - (DEADLINE - Number(args.minutes) * 60_000)) / 60_000).toFixed(1);
// 0 (or absent) until the service's first full collection.
const toMb = (bytes) => (bytes ? Math.round(bytes / 1048576) : null);

async function sampleMemory() {
  const heap = await metricOf(BASE, 'auction_nodejs_heap_used_after_full_gc_bytes');
  const kb = args.pid ? memoryOf(args.pid).rss : null;
  stats.memory.push({ minute: minute(), heapAfterFullGcMb: toMb(heap), rssMb: kb === null ? null : Math.round(kb / 1024) });
}

/**
 * Goal 5. Memory rises while caches, pools and compiled code fill, and RSS saws up and down by tens
 * of MB between major collections; settling means the last third of the samples sits where the
 * middle third did: its median within 10% of the middle third's. Samples without the figure (the
 * heap before the first full collection) are left out.
 */
function settles(samples, key) {
  const values = samples.map((s) => s[key]).filter((v) => v !== null);
  if (values.length < 6) return { settled: null, why: `${values.length} samples, fewer than 6` };
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const third = Math.floor(values.length / 3);
  const middle = median(values.slice(third, 2 * third));
  const last = median(values.slice(2 * third));
  const settled = last <= middle * 1.1;
  return { settled, middleThirdMedianMb: middle, lastThirdMedianMb: last, mark: settled ? '✓' : '✗' };
}

function logErrors() {
  if (!args.log) return [];
  return readFileSync(args.log, 'utf8').split('\n').filter((line) => {
    try {
      return JSON.parse(line).level >= 50;
    } catch {
      return false;
    }
  });
}

const percentile = (sorted, p) => +(sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0).toFixed(1);

async function main() {
  const api = new Api(BASE);
  expectStatus(await api.json('GET', '/'), 200, 'ping');
  const m = await setUp(api);
  const subs = subscribe(m.auctions, Number(args.subscribers));
  await subscribed(subs.length);
  const started = Date.now();
  await sampleMemory();
  const sampler = setInterval(() => void sampleMemory(), Number(args['rss-seconds']) * 1000);
  await Promise.all(Array.from({ length: Number(args.clients) }, () => client(api, m)));
  clearInterval(sampler);
  await sampleMemory();
  // Deliveries still on their way when the last request answered: late on a loaded machine is
  // not lost, so wait for them, up to 15 s.
  const behind = () => subs.some((s) => s.received < m.accepted.get(s.lot.id) && s.error === null);
  for (let waited = 0; waited < 15_000 && (waited < 2000 || behind()); waited += 250) await new Promise((r) => setTimeout(r, 250));
  const ping = await api.json('GET', '/').catch(() => ({ status: 0 }));
  const missing = subs.filter((s) => s.received !== m.accepted.get(s.lot.id)).map((s) => `lot ${s.lot.id}: received ${s.received} of ${m.accepted.get(s.lot.id)}${s.error ? ` (${s.error})` : ''}`);
  subs.forEach((s) => s.socket.dispose());
  const errors = logErrors();

  const seconds = (Date.now() - started) / 1000;
  const requests = Object.values(stats.byOp).reduce((n, s) => n + s.count, 0);
  const report = {
    base: BASE,
    minutes: +(seconds / 60).toFixed(1),
    clients: Number(args.clients),
    subscribers: subs.length,
    requests,
    requestsPerSecond: +(requests / seconds).toFixed(1),
    statuses: stats.statuses,
    operations: Object.fromEntries(Object.entries(stats.byOp).map(([op, s]) => {
      const sorted = s.latencies.sort((a, b) => a - b);
      return [op, { requests: s.count, p50Ms: percentile(sorted, 0.5), p99Ms: percentile(sorted, 0.99), maxMs: percentile(sorted, 1) }];
    })),
    bidsAccepted: Object.fromEntries(m.accepted),
    deliveriesMissing: missing,
    serverErrors: stats.serverErrors.slice(0, 20),
    timeouts: stats.timeouts.slice(0, 20),
    unexpected: stats.unexpected.slice(0, 20),
    logErrors: args.log ? errors.slice(0, 20) : 'not checked (no --log)',
    heapAfterFullGcMb: stats.memory.map((s) => ({ minute: s.minute, mb: s.heapAfterFullGcMb })),
    rssMb: args.pid ? stats.memory.map((s) => ({ minute: s.minute, mb: s.rssMb })) : 'not sampled (no --pid)',
    heapAfterFullGcSettles: settles(stats.memory, 'heapAfterFullGcMb'),
    rssSettles: args.pid ? settles(stats.memory, 'rssMb') : 'not sampled (no --pid)',
    serviceUp: ping.status === 200,
  };
  console.log(JSON.stringify(report, null, 2));
  // A heap that settles while RSS climbs is the allocator keeping freed pages, not a leak.
  const memory = report.heapAfterFullGcSettles.settled !== null ? report.heapAfterFullGcSettles : report.rssSettles;
  const failed = stats.serverErrors.length + stats.timeouts.length + stats.unexpected.length + missing.length + errors.length > 0 || ping.status !== 200 || memory.settled === false;
  const marks = `heap after full GC ${report.heapAfterFullGcSettles.mark ?? 'not judged'}, RSS ${report.rssSettles.mark ?? 'not judged'}`;
  console.log(failed ? `soak: FAILED (${marks})` : `soak: passed (${requests} requests, 0 5xx, 0 time-outs, every bid delivered; ${marks})`);
  process.exit(failed ? 1 : 0);
}

main().catch((err) => {
  console.error(`soak: ${err.stack ?? err}`);
  process.exit(1);
});
