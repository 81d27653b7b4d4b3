// The `lots` section of `npm run bench`: latency of typical GET /lots listings over a seeded
// catalogue, through HTTP and as the same SQL sent directly, in one process.
//
//   BENCH_LOTS=100000          lots to seed (default 100,000; lower it on the embedded database)
//   BENCH_LOTS_SAMPLES=200     sequential requests per query
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
import { rng, vehicle } from './make-feed.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');
const { Keypair } = require('@stellar/stellar-sdk');
const { createApp } = require('../dist/app.js');
const { loadConfig } = require('../dist/config.js');
const { logger } = require('../dist/core/logger.js');
const { migrate, openDatabase } = require('../dist/db/orm.js');

const TARGET_MEDIAN_MS = 15;
const TARGET_RATIO = 3;
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

async function seed(url, count) {
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

function get(base, target) {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${target}`, { agent, headers: { accept: 'application/vnd.api+json' } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}

function stats(ms) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { median: +at(0.5).toFixed(3), p99: +at(0.99).toFixed(3) };
}

async function timed(n, fn) {
  const ms = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return ms;
}

/** The statements one request sends, as the driver receives them (MikroORM inlines the values). */
async function captureSql(orm, base, target) {
  const knex = orm.em.getConnection().getKnex();
  const statements = [];
  const listener = (q) => statements.push(q.sql);
  knex.on('query', listener);
  try {
    const res = await get(base, target);
    if (res.status !== 200) throw new Error(`${target}: ${res.status} ${res.body}`);
  } finally {
    knex.off('query', listener);
  }
  return statements;
}

export async function lotsBench() {
  logger.level = 'silent';
  const count = Number(process.env.BENCH_LOTS ?? 100_000);
  const samples = Number(process.env.BENCH_LOTS_SAMPLES ?? 200);
  const explain = process.env.BENCH_EXPLAIN === '1';
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

    const col = (row, name) => row[COLUMNS.indexOf(name)];
    const vinOf = col(seeded.sample[Math.floor(seeded.sample.length / 2)], 'vin');
    const partnerLot = seeded.sample.find((row) => col(row, 'lot_type') === 2);
    const [maker, model] = [col(seeded.sample[3], 'maker'), col(seeded.sample[3], 'model')];
    const queries = [
      ['country + year range', 'filter[country]=GEO&filter[year]=2015,2020'],
      ['maker + model', `filter[maker]=${encodeURIComponent(maker)}&filter[model]=${encodeURIComponent(model)}`],
      ['price range in EUR', 'filter[currency]=EUR&filter[price]=5000,10000'],
      ['VIN (filter[vin])', `filter[vin]=${vinOf}`],
      ['VIN (filter[search])', `filter[search]=${vinOf}`],
      ['lot_type + lot_state by time_left', 'filter[lot_type]=eng&filter[lot_state]=pending&sort=time_left'],
      ['organizer', `filter[organizer]=${seeded.platforms[0]}`],
      ['partnerA yard + status', `filter[lot_type]=partnerA&filter[yard_number]=${col(partnerLot, 'yard_number')}&filter[partnerA_status]=pure,min`],
      ['no filter (default sort)', ''],
      ['sort by price (EUR)', 'filter[currency]=EUR&sort=price'],
    ];

    const results = {};
    for (const [name, query] of queries) {
      const target = `/lots?page[limit]=20${query ? `&${query}` : ''}`;
      const statements = await captureSql(orm, base, target);
      const first = JSON.parse((await get(base, target)).body);
      for (let i = 0; i < 20; i++) await get(base, target); // warm-up
      const http = stats(await timed(samples, () => get(base, target)));
      const sql = stats(
        await timed(samples, async () => {
          for (const s of statements) await direct.query(s);
        }),
      );
      const ratio = +(http.median / sql.median).toFixed(2);
      results[name] = {
        query: target,
        rows: first.data.length,
        statements: statements.length,
        httpMs: http,
        directSqlMs: sql,
        ratioHttpToDirect: ratio,
        meetsTarget: http.median < TARGET_MEDIAN_MS && ratio < TARGET_RATIO,
      };
      if (explain) {
        const listing = statements.find((s) => /from lots l/.test(s));
        const plan = await direct.query(`explain (analyze, buffers) ${listing}`);
        const sent = statements.map((s, i) => `  ${i + 1}. ${s.length > 160 ? `${s.slice(0, 160)}…` : s}`).join('\n');
        process.stderr.write(`\n== ${name}: ${target}\nstatements:\n${sent}\n${plan.rows.map((r) => r['QUERY PLAN']).join('\n')}\n`);
      }
    }
    return {
      database: db.kind,
      lots: count,
      seedSeconds: +seeded.seedSeconds.toFixed(1),
      samplesPerQuery: samples,
      targets: { medianMs: `< ${TARGET_MEDIAN_MS}`, ratioHttpToDirect: `< ${TARGET_RATIO}` },
      queries: results,
    };
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
