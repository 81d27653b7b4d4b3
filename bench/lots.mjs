// The `lots` section of `npm run bench` (goal 3): every sort key under each common
// filter over a seeded catalogue, through REST and GraphQL, beside the same statements sent
// directly in the same run, with the plan node that reads the lots (EXPLAIN (FORMAT JSON));
// then the service's GraphQL beside PostGraphile's over the same tables (bench/postgraphile.mjs).
//
//   BENCH_LOTS=100000          lots to seed (default 100,000; lower it on the embedded database)
//   BENCH_LOTS_SAMPLES=200     sequential requests per query
//   BENCH_LOTS_WARMUP=500      untimed requests before them (each listing, each peer query, each direct baseline)
//   BENCH_LOTS_PEER=0          leave PostGraphile out
//   BENCH_EXPLAIN=1            print EXPLAIN ANALYZE of each listing statement to stderr
//
// Standalone: `npm run build && node bench/lots.mjs` prints this section alone.
import { mkdtempSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { freshDatabase } from './db.mjs';
import { goal } from './goals.mjs';
import { markMemory } from './memory.mjs';
import { rng, vehicle } from './make-feed.mjs';
import { peerBench } from './postgraphile.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');
const { Keypair } = require('@stellar/stellar-sdk');
const { createApp } = require('../dist/app.js');
const { loadConfig } = require('../dist/config.js');
const { logger } = require('../dist/core/logger.js');
const { migrate, openDatabase } = require('../dist/db/orm.js');

const TARGET = { p50: 8, p99: 20, ratio: 2 };
const ROWS_PER_INSERT = 1000;
const DAY = 86400;
const CURRENCIES = ['USD', 'USD', 'USD', 'USD', 'USD', 'EUR', 'EUR', 'EUR', 'GEL', 'UAH'];
/** Where the seeded lots are: a few countries carry most of them. */
const COUNTRIES = ['GEO', 'GEO', 'GEO', 'USA', 'USA', 'USA', 'USA', 'UKR', 'UKR', 'DEU', 'DEU', 'POL', 'ARE', 'KOR', 'JPN', null];
const SALE_STATUSES = ['approval', 'pure', 'min'];

const COLUMNS = [
  'lot_type', 'lot_state', 'currency', 'start_price', 'buy_now_price', 'deposit', 'min_step', 'max_step', 'highest_bid',
  'start_time', 'duration', 'end_time', 'organizer_id', 'publisher_id', 'details', 'country', 'city', 'year', 'maker',
  'model', 'vin', 'wheel', 'fuel_type', 'transmission', 'registered', 'engine_volume', 'source_lot_id', 'yard_number',
  'sale_status', 'created_at', 'updated_at',
];

/** One seeded lot as its column values, in COLUMNS order. */
function lotRow(i, r, now, platforms, partners) {
  const roll = i % 20;
  const lotType = roll < 8 ? 1 : roll < 12 ? 0 : roll < 17 ? 2 : 3;
  const v = vehicle(r, 1_000_000 + i, r.pick(COUNTRIES) ?? undefined);
  const start = now + r.int(-60 * DAY, 30 * DAY);
  const duration = r.pick([3600, DAY, 3 * DAY, 7 * DAY]);
  const end = start + duration;
  const lotState = end > now || r() < 0.1 ? 1 : r() < 0.5 ? 2 : 3;
  const price = r.int(10, 800) * 50;
  const eng = lotType === 1;
  const direct = lotType === 0;
  const external = lotType >= 2;
  const organizer = external ? partners[lotType - 2] : platforms[Math.min(Math.floor(r() ** 2 * platforms.length), platforms.length - 1)];
  const sourceId = external ? 40_000_000 + i : null;
  const yard = external ? r.int(1, 60) : null;
  const sale = lotType === 2 ? r.pick(SALE_STATUSES) : null;
  const created = new Date((start - r.int(DAY, 10 * DAY)) * 1000);
  const details = { ...v, lot_name: `${v.year} ${v.maker} ${v.model}`, ...(external ? { yard_number: yard, lot_link: `https://lots.example/${sourceId}` } : {}), ...(sale ? { sale_status: sale, partnerA_lot_id: sourceId } : {}) };
  return [
    lotType, lotState, r.pick(CURRENCIES),
    direct ? '0.00' : `${price}.00`,
    direct ? `${price}.00` : r() < 0.4 ? `${price * 2}.00` : '0.00',
    eng && r() < 0.5 ? `${Math.round(price / 10)}.00` : '0.00',
    eng ? '50.00' : '0.00',
    eng ? '1000.00' : '0.00',
    eng && r() < 0.3 ? `${price + r.int(1, 20) * 50}.00` : null,
    new Date(start * 1000), duration, new Date(end * 1000), organizer, organizer, JSON.stringify(details),
    v.country, v.city, v.year, v.maker, v.model, v.vin_code, v.wheel, v.fuel_type, v.transmission, v.registered, v.engine_volume,
    sourceId, yard, sale, created, created,
  ];
}

/**
 * Bidders on the lots that have a highest bid: two participants each, and three bids up to it,
 * so that the GraphQL pages with bids read some.
 */
async function seedBids(client) {
  const bidders = Array.from({ length: 50 }, () => Keypair.random().publicKey());
  await client.query(`insert into accounts (id, account_type, email_verified, phone_verified) select id, 4, true, true from unnest($1::text[]) as id`, [bidders]);
  await client.query(
    `insert into participants (lot_id, account_id, state)
     select l.id, ($1::text[])[1 + (l.id + k) % 50], 0 from lots l cross join generate_series(0, 1) k where l.highest_bid is not null`,
    [bidders],
  );
  await client.query(
    `insert into bids (lot_id, participant_id, account_id, amount, created_at)
     select p.lot_id, p.id, p.account_id, l.highest_bid - (k * 2 + (p.id % 2)) * l.min_step, l.start_time + (3 - k) * interval '1 minute'
       from participants p join lots l on l.id = p.lot_id cross join generate_series(0, 1) k
      where l.highest_bid - (k * 2 + (p.id % 2)) * l.min_step >= l.start_price
      order by p.lot_id, k desc, p.id`,
  );
}

export async function seed(url, count) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const r = rng(42);
    const now = Math.floor(Date.now() / 1000);
    const account = () => Keypair.random().publicKey();
    const platforms = Array.from({ length: 20 }, account);
    const partners = [account(), account()];
    const ids = [...platforms, ...partners];
    await client.query(
      `insert into accounts (id, account_type, platform_id, email_verified, phone_verified) select id, 2, id, true, true from unnest($1::text[]) as id`,
      [ids],
    );
    const started = performance.now();
    const sample = [];
    const every = Math.floor(count / 100) | 1; // odd: the sample covers every lot type
    for (let done = 0; done < count; done += ROWS_PER_INSERT) {
      const n = Math.min(ROWS_PER_INSERT, count - done);
      const values = [];
      const tuples = [];
      for (let k = 0; k < n; k++) {
        const row = lotRow(done + k, r, now, platforms, partners);
        if ((done + k) % every === 0) sample.push(row);
        tuples.push(`(${row.map((_, c) => `$${values.length + c + 1}`).join(', ')})`);
        values.push(...row);
      }
      await client.query(`insert into lots (${COLUMNS.join(', ')}) values ${tuples.join(', ')}`, values);
    }
    await seedBids(client);
    const seedSeconds = (performance.now() - started) / 1000;
    // ANALYZE for the planner; VACUUM too, as autovacuum would have by then: a bulk load leaves
    // the search index's entries in GIN's pending list, which every search reads through.
    await client.query('vacuum analyze');
    return { platforms, partners, sample, seedSeconds };
  } finally {
    await client.end();
  }
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function send(base, target, body) {
  return new Promise((resolve, reject) => {
    const headers = body ? { 'content-type': 'application/json', accept: 'application/json' } : { accept: 'application/vnd.api+json' };
    const req = request(`${base}${target}`, { agent, method: body ? 'POST' : 'GET', headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

/** Sends one request and checks its answer: 200 with rows, no GraphQL errors. */
export async function fetchOk(base, target, body) {
  const res = await send(base, target, body);
  const parsed = res.status === 200 ? JSON.parse(res.body) : null;
  if (!parsed || parsed.errors) throw new Error(`${target}: ${res.status} ${res.body.slice(0, 500)}`);
  return parsed;
}

export function stats(ms) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { p50: +at(0.5).toFixed(3), p99: +at(0.99).toFixed(3) };
}

/**
 * Requests sent untimed before each listing's timed ones, here and for the peer, so that both are
 * timed as a running server answers them. With 20, the first listings of a new shape still ran in
 * code V8 had not optimised: the page with organizer and bids took 1.8 ms at the median over the
 * 200 that followed, 1.1 ms once warm.
 */
const WARMUP = Number(process.env.BENCH_LOTS_WARMUP ?? 500);

export async function timed(n, fn) {
  for (let i = 0; i < WARMUP; i++) await fn();
  const ms = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return stats(ms);
}

/**
 * What every connection of this process sends while `work` runs, as the server receives it: the
 * ORM's statements and the driver's batches (the listing's rates and page travel as one).
 */
async function captureSql(work) {
  const original = Client.prototype.query;
  const sent = [];
  Client.prototype.query = function query(config, values, callback) {
    // A pipeline of src/db/raw.ts carries its statements, each with `$n` placeholders and values.
    if (Array.isArray(config?.statements)) {
      for (const s of config.statements) sent.push({ text: s.text, values: s.values });
      return original.call(this, config, values, callback);
    }
    const text = typeof config === 'string' ? config : config.text;
    const params = typeof config === 'string' ? (Array.isArray(values) ? values : []) : (config.values ?? []);
    sent.push({ text, values: params });
    return original.call(this, config, values, callback);
  };
  try {
    await work();
  } finally {
    Client.prototype.query = original;
  }
  return sent;
}

/** The node that reads the lots of a plan (its scan and index), and whether a sort runs above it. */
function planNode(plan) {
  const scans = [];
  let sorted = false;
  const walk = (node) => {
    if (node['Node Type'] === 'Sort' || node['Node Type'] === 'Incremental Sort') sorted = true;
    if (node['Relation Name'] === 'lots' || (node['Node Type'] === 'Bitmap Index Scan' && /^lots_/.test(node['Index Name'] ?? ''))) {
      scans.push(node['Index Name'] ? `${node['Node Type']} ${node['Index Name']}` : node['Node Type']);
    }
    for (const child of node.Plans ?? []) walk(child);
  };
  walk(plan);
  const seq = scans.some((s) => s.startsWith('Seq Scan'));
  return { node: `${scans.join(' + ')}${sorted ? ' → Sort' : ''}`, seqScan: seq };
}

/** The listing statement of what a request sent: the part of a batch that reads `lots l`. */
function listingOf(sent) {
  for (const { text, values } of sent) {
    const part = text.split(';\n').find((p) => /from lots l\b/.test(p) && !/count\(\*\)/.test(p));
    if (part) return { text: part, values: text.includes(';\n') ? [] : values };
  }
  return null;
}

async function explain(direct, listing, analyze) {
  const { rows } = await direct.query(`explain (${analyze ? 'analyze, buffers, ' : ''}format json) ${listing.text}`, listing.values);
  return rows[0]['QUERY PLAN'][0].Plan;
}

const mark = (ok) => (ok ? '✓' : '✗');

/** One line of the report: p50 and p99 against their targets, the ratio to direct SQL, the plan node. */
function line(edge, sortKey, filter, r) {
  const ms = (v) => `${v.toFixed(2).padStart(6)} ms`;
  return `${edge.padEnd(7)} ${sortKey.padEnd(15)} ${filter.padEnd(17)} p50 ${ms(r.p50)} ${mark(r.ok.p50)}  p99 ${ms(r.p99)} ${mark(r.ok.p99)}  direct p50 ${ms(r.directP50)}  ×${r.ratio.toFixed(2).padEnd(5)} ${mark(r.ok.ratio)}  ${r.plan}`;
}

const LOT_FIELDS = 'id lotType lotTypeStr lotState lotStateStr currency startPrice buyNowPrice deposit minStep maxStep highestBid buyNowSupport startTime endTime duration organizerId publisherId winnerId details createdAt updatedAt';
const GQL_LOTS = `query($filter: LotFilter, $sort: LotSort, $first: Int!) { lots(filter: $filter, sort: $sort, first: $first) { nodes { ${LOT_FIELDS} } pageInfo { endCursor } } }`;

/** The common filters, as REST parameters and as the GraphQL LotFilter. */
export function commonFilters(seeded) {
  const col = (row, name) => row[COLUMNS.indexOf(name)];
  const [maker, model] = [col(seeded.sample[3], 'maker'), col(seeded.sample[3], 'model')];
  const organizer = seeded.platforms[0];
  return [
    ['none', '', {}],
    ['type + state', 'filter[lot_type]=eng&filter[lot_state]=pending', { lotType: ['eng'], lotState: ['pending'] }],
    ['country', 'filter[country]=GEO', { country: 'GEO' }],
    ['maker + model', `filter[maker]=${encodeURIComponent(maker)}&filter[model]=${encodeURIComponent(model)}`, { maker, model }],
    ['year range', 'filter[year]=2015,2020', { year: { min: 2015, max: 2020 } }],
    ['organizer', `filter[organizer]=${organizer}`, { organizer }],
    ['search', `filter[search]=${encodeURIComponent(model)}`, { search: model }],
    ['currency + price', 'filter[currency]=EUR&filter[price]=5000,10000', { currency: 'EUR', price: { min: '5000', max: '10000' } }],
  ];
}

/** The listings of the earlier bench that are not a sort key under a common filter. */
function otherListings(seeded) {
  const col = (row, name) => row[COLUMNS.indexOf(name)];
  const vin = col(seeded.sample[Math.floor(seeded.sample.length / 2)], 'vin');
  const partnerLot = seeded.sample.find((row) => col(row, 'lot_type') === 2);
  const yard = col(partnerLot, 'yard_number');
  return [
    ['vin', `filter[vin]=${vin}`, { vin: [vin] }],
    ['vin search', `filter[search]=${vin}`, { search: vin }],
    ['partnerA yard', `filter[lot_type]=partnerA&filter[yard_number]=${yard}&filter[partnerA_status]=pure,min`, { lotType: ['partnerA'], yardNumber: yard, partnerAStatus: ['pure', 'min'] }],
  ];
}

const SORTS = [
  ['start_time', true],
  ['time_left', false],
  ['price', false],
  ['buy_now_price', true],
  ['created_at', true],
  ['updated_at', true],
];

/** One listing through one edge: its timings, the same statements sent directly, its plan. */
async function measure(direct, samples, fetch, explainIt) {
  const sent = await captureSql(fetch);
  const listing = listingOf(sent);
  if (!listing) throw new Error(`no listing statement among ${sent.map((s) => s.text.slice(0, 80)).join(' | ')}`);
  const http = await timed(samples, fetch);
  const sql = await timed(samples, async () => {
    for (const s of sent) await direct.query(s.text, s.values);
  });
  const plan = planNode(await explain(direct, listing, false));
  if (explainIt) process.stderr.write(`${JSON.stringify(await explain(direct, listing, true), null, 1)}\n`);
  const ratio = http.p50 / sql.p50;
  return {
    p50: http.p50,
    p99: http.p99,
    directP50: sql.p50,
    directP99: sql.p99,
    ratio: +ratio.toFixed(2),
    statements: sent.length,
    plan: plan.node,
    ok: { p50: http.p50 <= TARGET.p50, p99: http.p99 <= TARGET.p99, ratio: ratio <= TARGET.ratio },
  };
}

const meetsAll = (r) => r.ok.p50 && r.ok.p99 && r.ok.ratio;

/** Goal 3 as one line of the report: the listings that meet all three targets per edge, and PostGraphile beside them. */
function goal3(count, rows, peer) {
  const edge = (name, key) => {
    const all = rows.map((r) => r[key]);
    const n = all.filter(meetsAll).length;
    return {
      ok: n === rows.length,
      text: `${name}: ${n} of ${rows.length} listings meet all three (highest p50 ${Math.max(...all.map((r) => r.p50))} ms, highest p99 ${Math.max(...all.map((r) => r.p99))} ms; median ×${stats(all.map((r) => r.ratio)).p50} the statements, median ${stats(all.map((r) => r.directP50)).p50} ms sent directly)`,
    };
  };
  const checks = [edge('REST', 'rest'), edge('GraphQL', 'graphql')];
  if (peer) {
    const pages = Object.values(peer);
    checks.push({ ok: pages.every((p) => p.ok), text: `PostGraphile, same run: ${pages.filter((p) => p.ok).length} of ${pages.length} pages no slower (p50 ratios ${pages.map((p) => `×${p.ratioP50}`).join(', ')})` });
  }
  return goal(`goal 3, every lot listing at ${count} lots (p50 ≤ ${TARGET.p50} ms, p99 ≤ ${TARGET.p99} ms, ≤ ${TARGET.ratio}× the same statements sent directly)`, checks);
}

/**
 * Goal 4's listing line: every listing's p50 and p99 within the bounds, those of a price range in a
 * converted currency on their own, each beside the slowest of the same statements sent directly.
 */
function goal4(count, rows) {
  const check = (name, listings) => {
    const all = listings.flatMap((r) => [r.rest, r.graphql]);
    const p50 = Math.max(...all.map((r) => r.p50));
    const p99 = Math.max(...all.map((r) => r.p99));
    return { ok: p50 <= TARGET.p50 && p99 <= TARGET.p99, text: `${name}: highest p50 ${p50} ms, p99 ${p99} ms over REST and GraphQL (the same statements sent directly: highest p50 ${Math.max(...all.map((r) => r.directP50))} ms)` };
  };
  return goal(`goal 4, every lot listing in single digits at ${count} lots (p50 ≤ ${TARGET.p50} ms, p99 ≤ ${TARGET.p99} ms)`, [
    check(`all ${rows.length} listings`, rows),
    check('price range in a converted currency', rows.filter((r) => r.filter === 'currency + price')),
  ]);
}

export async function lotsBench() {
  logger.level = 'silent';
  const count = Number(process.env.BENCH_LOTS ?? 100_000);
  const samples = Number(process.env.BENCH_LOTS_SAMPLES ?? 200);
  const explainIt = process.env.BENCH_EXPLAIN === '1';
  const db = await freshDatabase('bench_lots');
  const orm = await openDatabase(db.url);
  let app;
  const direct = new Client({ connectionString: db.url });
  try {
    await migrate(orm);
    const master = Keypair.random();
    const config = loadConfig({ DATABASE_URL: db.url, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'bench-lots-')), MASTER_SEED: master.secret(), LOG_LEVEL: 'silent' });
    const seeded = await seed(db.url, count);
    app = await createApp({ config, orm, master, log: logger });
    const { port } = await app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${port}`;
    await direct.connect();

    const listings = [];
    for (const [filterName, query, filter] of commonFilters(seeded)) {
      for (const [key, desc] of SORTS) listings.push({ filterName, sortName: `${desc ? '-' : ''}${key}`, query: `${query ? `${query}&` : ''}sort=${desc ? '-' : ''}${key}`, filter, sort: { key, desc } });
    }
    for (const [filterName, query, filter] of otherListings(seeded)) listings.push({ filterName, sortName: '-start_time', query, filter, sort: null });

    process.stderr.write(`\nlots: ${count} lots; targets p50 ≤ ${TARGET.p50} ms, p99 ≤ ${TARGET.p99} ms, ≤ ${TARGET.ratio}× the same statements sent directly\n`);
    const rows = [];
    for (const l of listings) {
      const target = `/lots?page[limit]=20&${l.query}`;
      const rest = await measure(direct, samples, () => fetchOk(base, target), explainIt);
      const variables = { filter: l.filter, sort: l.sort, first: 20 };
      const gql = await measure(direct, samples, () => fetchOk(base, '/graphql', { query: GQL_LOTS, variables }), false);
      process.stderr.write(`${line('REST', l.sortName, l.filterName, rest)}\n${line('GraphQL', l.sortName, l.filterName, gql)}\n`);
      rows.push({ filter: l.filterName, sort: l.sortName, query: target, rest, graphql: gql });
    }
    const result = {
      database: db.kind,
      lots: count,
      seedSeconds: +seeded.seedSeconds.toFixed(1),
      samplesPerQuery: samples,
      targets: { p50Ms: `≤ ${TARGET.p50}`, p99Ms: `≤ ${TARGET.p99}`, ratioToDirect: `≤ ${TARGET.ratio}` },
      met: { rest: rows.filter((r) => meetsAll(r.rest)).length, graphql: rows.filter((r) => meetsAll(r.graphql)).length, of: rows.length },
      listings: rows,
    };
    if (process.env.BENCH_LOTS_PEER !== '0') {
      const [maker, model] = [seeded.sample[3][COLUMNS.indexOf('maker')], seeded.sample[3][COLUMNS.indexOf('model')]];
      result.postgraphile = await peerBench({ url: db.url, base, samples, maker, model, fetchOk, timed });
    }
    result.goals = [goal3(count, rows, result.postgraphile), goal4(count, rows)];
    process.stderr.write(`${result.goals.join('\n')}\n`);
    await markMemory('lots', 'after the listings');
    return result;
  } finally {
    agent.destroy();
    await direct.end().catch(() => {});
    await app?.close();
    await orm.close();
    await db.drop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  lotsBench().then(
    (lots) => console.log(JSON.stringify({ lots }, null, 2)),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
