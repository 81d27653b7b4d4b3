// The `lot creation` section of `npm run bench` (goal 4 of the performance goals): what a lot created
// through the API (a signed POST /lots) costs the database, over the catalogue of the listings
// (bench/lots.mjs's seed) and saved searches of which a few match each lot, beside the same
// lot's bare INSERT sent directly in the same run (its trigger and indexes only).
//
//   BENCH_LOT_CREATE=0               leaves the section out of `npm run bench`
//   BENCH_LOT_CREATE_COUNT=200       lots created through the API (timed), after 50 untimed
//   BENCH_LOT_CREATE_LOTS            lots seeded first (default BENCH_LOTS, else 100,000)
//   BENCH_LOT_CREATE_SEARCHES=1000   saved searches; every hundredth names the created lots' maker
//
// Database time per lot comes from pg_stat_statements (each statement's execution and planning,
// its triggers included) where the server preloads it; elsewhere from pg_stat_database's
// active_time across the phase, read once the service's connections have closed and so reported
// it (no per-statement split then).
//
// Standalone: `npm run build && node bench/lot-create.mjs` prints this section alone.
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { freshDatabase, resetStatementStats, statementStats } from './db.mjs';
import { goal } from './goals.mjs';
import { seed } from './lots.mjs';
import { endPosts, signedPost } from './service.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');
const { Keypair } = require('@stellar/stellar-sdk');
const { createApp } = require('../dist/app.js');
const { loadConfig } = require('../dist/config.js');
const { logger } = require('../dist/core/logger.js');
const { migrate, openDatabase } = require('../dist/db/orm.js');

const BOUND_MS = 2;
const WARMUP = 50;

/** The n-th lot of the run: an auction of a car whose maker every hundredth saved search names. */
function lotBody(n) {
  return {
    data: {
      type: 'lots',
      attributes: {
        type: 'eng',
        currency: ['USD', 'EUR', 'GEL'][n % 3],
        start_price: String(1000 + (n % 50) * 100),
        buy_now_price: '0',
        deposit: '100',
        min_step: '50',
        max_step: '500',
        duration: 86400,
        details: { country: 'GEO', city: 'Tbilisi', year: 2010 + (n % 12), maker: 'Toyota', model: 'Camry', vin_code: `4T1BF1FK5CU${String(100000 + n)}`, fuel_type: 'gas', wheel: 'left', transmission: 'AUTOMATIC' },
      },
    },
  };
}

/** A lot made through the API: 204, else the run stops with the service's answer. */
async function created(base, body, keypair) {
  const { status, text } = await signedPost(base, '/lots', body, keypair);
  if (status !== 204) throw new Error(`/lots: ${status} ${text.slice(0, 500)}`);
}

function stats(ms) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { p50: +at(0.5).toFixed(3), p99: +at(0.99).toFixed(3) };
}

/** Saved searches of 100 accounts, a hundredth of them naming Toyota with a price bound every lot of the run meets. */
async function seedSearches(client, platform, total) {
  await client.query(`insert into accounts (id, account_type, platform_id, email_verified, phone_verified) select id, 4, $2, true, true from unnest($1::text[]) as id`, [
    Array.from({ length: 100 }, () => Keypair.random().publicKey()),
    platform,
  ]);
  await client.query(
    `insert into saved_searches (account_id, filters, currency, maker, year_min, price_max)
     select a.id, '{}', case when g % 3 = 0 then 'EUR' else 'USD' end, case when g % 100 = 0 then 'Toyota' else 'Maker' || (g % 97) end,
            case when g % 7 = 0 then 2000 end, case when g % 100 = 0 then 100000 end
       from generate_series(1, $1::int) g
       join (select id, row_number() over (order by id) - 1 as k from accounts where account_type = 4) a on a.k = g % 100`,
    [total],
  );
}

/** Waits for the service's first housekeeping pass to complete (at most two minutes). */
async function housekept(client) {
  const until = Date.now() + 120_000;
  for (;;) {
    const { rows } = await client.query(`select count(*)::int as n from pgboss.job where name = 'cleanup' and state = 'completed'`);
    if (rows[0].n > 0) return;
    if (Date.now() > until) throw new Error('the first housekeeping pass did not complete within two minutes');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const activeMs = async (client) => Number((await client.query('select active_time from pg_stat_database where datname = current_database()')).rows[0].active_time);

/** The same lot's bare INSERT, each in its own transaction: what its trigger and the table's indexes cost. */
async function bareInserts(client, platform, n, from) {
  for (let i = 0; i < n; i++) {
    const a = lotBody(from + i).data.attributes;
    await client.query(
      `insert into lots (lot_type, currency, start_price, buy_now_price, deposit, min_step, max_step, start_time, duration, end_time, organizer_id, publisher_id, details,
                         country, city, year, maker, model, vin, fuel_type, wheel, transmission)
       values (1, $1, $2, 0, 100, 50, 500, date_trunc('second', now()), 86400, date_trunc('second', now()) + interval '1 day', $3, $3, $4, 'GEO', 'Tbilisi', $5, 'Toyota', 'Camry', $6, 'gas', 'left', 'AUTOMATIC')`,
      [a.currency, a.start_price, platform, JSON.stringify(a.details), a.details.year, a.details.vin_code],
    );
  }
}

export async function lotCreateBench() {
  logger.level = 'silent';
  const lots = Number(process.env.BENCH_LOT_CREATE_LOTS ?? (Number(process.env.BENCH_LOTS) || 100_000));
  const n = Number(process.env.BENCH_LOT_CREATE_COUNT ?? 200);
  const searches = Number(process.env.BENCH_LOT_CREATE_SEARCHES ?? 1000);
  const db = await freshDatabase('bench_lot_create', { statements: true });
  const orm = await openDatabase(db.url);
  const direct = new Client({ connectionString: db.url });
  let app;
  let closed = false;
  try {
    await migrate(orm);
    await seed(db.url, lots);
    const staff = Keypair.random();
    await direct.connect();
    await direct.query(`insert into accounts (id, account_type, platform_id, email_verified, phone_verified) values ($1, 2, $1, true, true)`, [staff.publicKey()]);
    await seedSearches(direct, staff.publicKey(), searches);
    await direct.query('vacuum analyze');
    // The housekeeping runs once at start, then not again during the run: its first pass schedules
    // the clock jobs of every seeded lot (thousands of job rows), no part of creating a lot.
    const config = loadConfig({
      DATABASE_URL: db.url,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'bench-lot-create-')),
      MASTER_SEED: Keypair.random().secret(),
      LOG_LEVEL: 'silent',
      CLEANUP_INTERVAL_SECONDS: '86400',
    });
    app = await createApp({ config, orm, master: Keypair.random(), log: logger });
    const { port } = await app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${port}`;
    process.stderr.write(`\nlot creation: ${n} lots through POST /lots over ${lots} lots and ${searches} saved searches\n`);

    await housekept(direct);
    for (let i = 0; i < WARMUP; i++) await created(base, lotBody(i), staff);
    await bareInserts(direct, staff.publicKey(), WARMUP, 0);
    const matchesBefore = Number((await direct.query('select count(*) from notifications')).rows[0].count);

    if (db.statements) await resetStatementStats(db.url);
    const activeBefore = await activeMs(direct);
    const ms = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await created(base, lotBody(WARMUP + i), staff);
      ms.push(performance.now() - t0);
    }
    const api = db.statements ? await statementStats(db.url, n, { top: 10 }) : null;
    await app.close();
    app = undefined;
    // Closing its connections makes each report its active time to pg_stat_database.
    await orm.close();
    closed = true;
    const apiMs = api ? api.perUnit.databaseMs : (await activeMs(direct)) - activeBefore;
    const matched = (Number((await direct.query('select count(*) from notifications')).rows[0].count) - matchesBefore) / n;

    if (db.statements) await resetStatementStats(db.url);
    const bareBefore = await activeMs(direct);
    await bareInserts(direct, staff.publicKey(), n, WARMUP);
    const bare = db.statements ? await statementStats(db.url, n, { top: 3 }) : null;
    const bareMs = bare ? bare.perUnit.databaseMs : (await activeMs(direct)) - bareBefore;

    const source = db.statements ? 'pg_stat_statements' : 'pg_stat_database.active_time';
    const perLot = +(db.statements ? apiMs : apiMs / n).toFixed(3);
    const barePerLot = +(db.statements ? bareMs : bareMs / n).toFixed(3);
    const wall = stats(ms);
    const result = {
      database: db.kind,
      lots,
      savedSearches: searches,
      created: n,
      matchesPerLot: matched,
      source,
      databaseMsPerLot: perLot,
      bareInsertMsPerLot: barePerLot,
      httpMs: wall,
      statements: api,
      bareInsert: bare,
    };
    result.goals = [
      goal(`goal 4, lot creation through the API at ${lots} lots and ${searches} saved searches (${matched} matched per lot)`, [
        { ok: perLot <= BOUND_MS, text: `${perLot} ms of database time per lot (${source}; bound ≤ ${BOUND_MS} ms; the bare INSERT of the same lot, same run: ${barePerLot} ms, ×${(perLot / barePerLot).toFixed(2)}; HTTP p50 ${wall.p50} ms, p99 ${wall.p99} ms)` },
      ]),
    ];
    process.stderr.write(`${result.goals[0]}\n`);
    if (api) for (const s of api.statements) process.stderr.write(`  ${String(s.callsPerUnit).padStart(5)}× ${String(s.meanExecMs).padStart(7)} ms (plan ${s.meanPlanMs}) ${s.walBytesPerUnit} B WAL  ${s.query}\n`);
    return result;
  } finally {
    endPosts();
    await app?.close();
    await direct.end().catch(() => {});
    if (!closed) await orm.close();
    await db.drop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  lotCreateBench().then(
    (lotCreate) => console.log(JSON.stringify({ lotCreate }, null, 2)),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
