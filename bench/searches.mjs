// The `searches` section of `npm run bench`: what matching one new lot against every saved
// search costs (docs/saved-searches.md). The match is the one statement the lot's creation runs
// (an INSERT … SELECT of notifications over all saved searches); it is timed with 1,000 and with
// 100,000 saved searches in the same run, each time in a transaction rolled back, so the ratio
// tells how the statement grows. A tenth of the searches match the lot.
//
//   BENCH_SEARCHES_RUNS=20   timed runs per size (the median is reported)
//
// Standalone: `npm run build && node bench/searches.mjs` prints this section alone.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { freshDatabase } from './db.mjs';

const require = createRequire(import.meta.url);
const { Pool } = require('pg');
const { Keypair } = require('@stellar/stellar-sdk');
const { migrate, openDatabase } = require('../dist/db/orm.js');
const { matchingSearches } = require('../dist/modules/searches/searches.sql.js');
const { NotificationsService } = require('../dist/modules/notifications/notifications.service.js');
const { NotificationType } = require('../dist/modules/notifications/notifications.entity.js');
const { sql } = require('../dist/db/sql.js');

const RUNS = Number(process.env.BENCH_SEARCHES_RUNS ?? 20);
const SIZES = [1_000, 100_000];

/** `?` placeholders as the ORM sends them, `$n` as pg takes them. */
function pgText(statement) {
  let i = 0;
  return { text: statement.text.replace(/\?/g, () => `$${++i}`), values: statement.params ?? [] };
}

async function seed(pool) {
  const platform = Keypair.random().publicKey();
  await pool.query(`insert into accounts (id, account_type, platform_id) values ($1, 2, $1)`, [platform]);
  const { rows } = await pool.query(
    `insert into lots (lot_type, currency, start_price, buy_now_price, deposit, min_step, max_step, start_time, duration, end_time, organizer_id, publisher_id, details,
                       country, city, maker, model, year, fuel_type)
     values (1, 'USD', 1000, 0, 0, 50, 500, now(), 86400, now() + interval '1 day', $1, $1, '{}', 'GEO', 'Tbilisi', 'Toyota', 'Camry', 2018, 'gas') returning id`,
    [platform],
  );
  return { platform, lotId: String(rows[0].id) };
}

/** Saved searches up to `total`, of 100 accounts; every tenth names the lot's maker and a price bound it meets. */
async function searchesUpTo(pool, platform, from, total) {
  await pool.query(
    `insert into saved_searches (account_id, filters, currency, maker, model_prefix, year_min, price_max)
     select $1, '{}', case when g % 3 = 0 then 'EUR' else 'USD' end, case when g % 10 = 0 then 'Toyota' else 'Maker' || (g % 97) end,
            case when g % 20 = 0 then 'Cam' end, case when g % 7 = 0 then 2010 end, case when g % 10 = 0 then 5000 end
       from generate_series($2::int, $3::int) g`,
    [platform, from, total],
  );
  await pool.query('analyze saved_searches');
}

async function timeMatch(pool, lotId) {
  const statement = pgText(sql.render(new NotificationsService().insertBatch(NotificationType.SavedSearchMatched, matchingSearches(lotId), { lot_id: lotId })));
  const client = await pool.connect();
  const times = [];
  let matched = 0;
  try {
    for (let i = 0; i < RUNS + 2; i++) {
      await client.query('begin');
      const started = performance.now();
      const res = await client.query(statement);
      const ms = performance.now() - started;
      await client.query('rollback');
      matched = res.rowCount;
      if (i >= 2) times.push(ms);
    }
  } finally {
    client.release();
  }
  times.sort((a, b) => a - b);
  return { medianMs: +times[Math.floor(times.length / 2)].toFixed(2), p90Ms: +times[Math.floor(times.length * 0.9)].toFixed(2), matched };
}

export async function searchesBench() {
  const db = await freshDatabase('bench_searches');
  const orm = await openDatabase(db.url);
  try {
    await migrate(orm);
    const pool = new Pool({ connectionString: db.url, max: 2 });
    try {
      const { platform, lotId } = await seed(pool);
      const result = { database: db.kind, runs: RUNS, statementsPerNewLot: 1 };
      let done = 0;
      for (const size of SIZES) {
        await searchesUpTo(pool, platform, done + 1, size);
        done = size;
        result[`${size} saved searches`] = await timeMatch(pool, lotId);
      }
      const small = result[`${SIZES[0]} saved searches`].medianMs;
      const large = result[`${SIZES[1]} saved searches`].medianMs;
      result.ratio100kTo1k = +(large / Math.max(0.01, small)).toFixed(1);
      return result;
    } finally {
      await pool.end();
    }
  } finally {
    await orm.close(true);
    await db.drop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(JSON.stringify(await searchesBench(), null, 2));
}
