// The `platformStats` section of `npm run bench`: an operator's dashboard, a
// platform's lots listed and sold, bids, active bidders and GMV per day over the last 30 days,
// through HTTP (a signed GraphQL request of the master account) over 100,000 lots and 1,000,000
// bids, beside the baseline: the bare statements a minimal implementation needs (the lots counted
// through their publisher's index, the bids and their distinct bidders read through their lots),
// sent directly in the same run.
//
//   BENCH_STATS_LOTS=100000      lots to seed, over the last 365 days, ten platforms
//   BENCH_STATS_SAMPLES=200      sequential requests per query (after as many untimed)
//
// Standalone: `npm run build && node bench/platform-stats.mjs` prints this section alone.
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { freshDatabase } from './db.mjs';
import { goal } from './goals.mjs';
import { endPosts, signedPost } from './service.mjs';

const require = createRequire(import.meta.url);
const { Client } = require('pg');
const { Keypair } = require('@stellar/stellar-sdk');
const { createApp } = require('../dist/app.js');
const { loadConfig } = require('../dist/config.js');
const { logger } = require('../dist/core/logger.js');
const { migrate, openDatabase } = require('../dist/db/orm.js');

const TARGET_P50 = 20;
const PLATFORMS = 10;
const BIDDERS = 10_000;
/** Participants per lot, and bids per participant: 100,000 lots carry 1,000,000 bids. */
const PARTICIPANTS = 5;
const BIDS_EACH = 2;
const DAY = 86_400_000;

const QUERY = `query($platformId: ID!, $from: DateTimeISO!, $to: DateTimeISO!) {
  platformStats(platformId: $platformId, from: $from, to: $to, interval: DAY, currency: USD) {
    intervals { start lotsListed lotsSold bids activeBidders gmv { amount } }
  }
}`;

/** What a minimal implementation sends: the lots per day, and the bids and bidders per day read through the platform's lots. */
const BASELINE = [
  `select date_trunc('day', created_at, 'UTC') as day, count(*) from lots where publisher_id = $1 and created_at >= $2 and created_at < $3 group by 1`,
  `select date_trunc('day', end_time, 'UTC') as day, count(*), sum(coalesce(highest_bid, start_price)) from lots
    where publisher_id = $1 and lot_state = 2 and end_time >= $2 and end_time < $3 group by 1`,
  `select date_trunc('day', b.created_at, 'UTC') as day, count(*), count(distinct b.account_id) from bids b join lots l on l.id = b.lot_id
    where l.publisher_id = $1 and b.created_at >= $2 and b.created_at < $3 group by 1`,
];

async function seed(client, count) {
  const platforms = Array.from({ length: PLATFORMS }, () => Keypair.random().publicKey());
  const bidders = Array.from({ length: BIDDERS }, () => Keypair.random().publicKey());
  await client.query(`insert into accounts (id, account_type, platform_id, email_verified, phone_verified) select id, 2, id, true, true from unnest($1::text[]) as id`, [platforms]);
  await client.query(`insert into accounts (id, account_type, email_verified, phone_verified) select id, 4, true, true from unnest($1::text[]) as id`, [bidders]);
  // Created over the last year, one day before their auction of a day; a third of the ended ones sold.
  await client.query(
    `insert into lots (lot_type, lot_state, currency, start_price, buy_now_price, deposit, min_step, max_step, highest_bid,
                       start_time, duration, end_time, organizer_id, publisher_id, details, maker, created_at, updated_at)
     select 1, case when t.e > now() then 1 when g % 3 = 0 then 2 else 3 end, (array['USD', 'EUR', 'GEL'])[1 + g % 3],
            1000 + (g % 97) * 10, 0, 0, 50, 1000, case when t.s < now() then 1500 + (g % 97) * 10 end,
            t.s, 86400, t.e, p.id, p.id, '{}', (array['Toyota', 'BMW', 'Honda', 'Ford'])[1 + g % 4], t.c, t.c
       from generate_series(0, $2::int - 1) g
       cross join lateral (select ($1::text[])[1 + g % ${PLATFORMS}] as id) p
       cross join lateral (select c, c + interval '1 day' as s, c + interval '2 days' as e
                             from (select now() - interval '365 days' * (g::float8 / $2::int) as c) c) t`,
    [platforms, count],
  );
  await client.query(
    `insert into participants (lot_id, account_id, state)
     select l.id, ($1::text[])[1 + (l.id * 7 + k * 1311) % ${BIDDERS}], 0 from lots l cross join generate_series(0, ${PARTICIPANTS - 1}) k`,
    [bidders],
  );
  await client.query(
    `insert into bids (lot_id, participant_id, account_id, amount, created_at)
     select p.lot_id, p.id, p.account_id, l.start_price + (k * ${PARTICIPANTS} + p.id % ${PARTICIPANTS}) * 50, l.start_time + ((p.id % ${PARTICIPANTS}) * 2 + k) * interval '2 hours'
       from participants p join lots l on l.id = p.lot_id cross join generate_series(0, ${BIDS_EACH - 1}) k`,
  );
  // What Migration20261127220000BidActivity fills from the bids already there, as the bid round keeps it.
  await client.query(
    `insert into bid_activity (platform_id, hour, account_id, bids)
     select l.publisher_id, date_trunc('hour', b.created_at, 'UTC'), b.account_id, count(*) from bids b join lots l on l.id = b.lot_id group by 1, 2, 3`,
  );
  await client.query('vacuum analyze');
  const [{ rows: [bids] }, { rows: [activity] }] = [await client.query('select count(*)::int as n from bids'), await client.query('select count(*)::int as n from bid_activity')];
  return { platforms, bids: bids.n, activityRows: activity.n };
}

/** A signed POST answered 200 with a document and no errors, else the run stops with the service's answer. */
async function postedDocument(base, target, body, keypair) {
  const { status, text } = await signedPost(base, target, body, keypair, 'application/json');
  const parsed = status === 200 ? JSON.parse(text) : null;
  if (!parsed || parsed.errors) throw new Error(`${target}: ${status} ${text.slice(0, 500)}`);
  return parsed;
}

function stats(ms) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { p50: +at(0.5).toFixed(3), p99: +at(0.99).toFixed(3) };
}

async function timed(n, fn) {
  for (let i = 0; i < n; i++) await fn();
  const ms = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    ms.push(performance.now() - t0);
  }
  return stats(ms);
}

export async function platformStatsBench() {
  logger.level = 'silent';
  const count = Number(process.env.BENCH_STATS_LOTS ?? 100_000);
  const samples = Number(process.env.BENCH_STATS_SAMPLES ?? 200);
  const db = await freshDatabase('bench_stats');
  const orm = await openDatabase(db.url);
  const direct = new Client({ connectionString: db.url });
  let app;
  try {
    await migrate(orm);
    await direct.connect();
    const started = performance.now();
    const seeded = await seed(direct, count);
    const seedSeconds = +((performance.now() - started) / 1000).toFixed(1);
    const master = Keypair.random();
    const config = loadConfig({ DATABASE_URL: db.url, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'bench-stats-')), MASTER_SEED: master.secret(), LOG_LEVEL: 'silent' });
    app = await createApp({ config, orm, master, log: logger });
    const { port } = await app.listen(0, '127.0.0.1');
    const base = `http://127.0.0.1:${port}`;

    const today = Math.floor(Date.now() / DAY) * DAY;
    const from = new Date(today - 29 * DAY);
    const to = new Date(today + DAY);
    const platformId = seeded.platforms[0];
    const variables = { platformId, from: from.toISOString(), to: to.toISOString() };
    const answer = await postedDocument(base, '/graphql', { query: QUERY, variables }, master);
    const bidsInRange = answer.data.platformStats.intervals.reduce((s, i) => s + i.bids, 0);
    const loadBefore = loadavg().map((l) => +l.toFixed(2));
    const http = await timed(samples, () => postedDocument(base, '/graphql', { query: QUERY, variables }, master));
    const baseline = await timed(samples, async () => {
      for (const text of BASELINE) await direct.query(text, [platformId, from, to]);
    });
    const loadAfter = loadavg().map((l) => +l.toFixed(2));
    const ratio = +(http.p50 / baseline.p50).toFixed(2);
    const result = {
      database: db.kind,
      lots: count,
      bids: seeded.bids,
      bidActivityRows: seeded.activityRows,
      seedSeconds,
      query: `30 days by day, one platform of ${PLATFORMS} (${bidsInRange} bids in the range)`,
      samples,
      http,
      baseline: { what: 'the bare statements without the rollup, sent directly', ...baseline },
      ratioToBaseline: ratio,
      loadAverage: { before: loadBefore, after: loadAfter },
    };
    result.goals = [
      goal(`platformStats, ${result.query}, over ${count} lots and ${seeded.bids} bids (p50 ≤ ${TARGET_P50} ms through HTTP)`, [
        { ok: http.p50 <= TARGET_P50, text: `p50 ${http.p50} ms, p99 ${http.p99} ms` },
        { ok: true, text: `baseline (bare SQL, direct) p50 ${baseline.p50} ms, p99 ${baseline.p99} ms; ×${ratio}; load average ${loadBefore.join(' ')} → ${loadAfter.join(' ')} (a shared machine)` },
      ]),
    ];
    process.stderr.write(`${result.goals[0]}\n`);
    return result;
  } finally {
    endPosts();
    await direct.end().catch(() => {});
    await app?.close();
    await orm.close();
    await db.drop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  platformStatsBench().then(
    (platformStats) => console.log(JSON.stringify({ platformStats }, null, 2)),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
