// The `bids` section of `npm run bench`: signed HTTP bids from concurrent clients on one hot lot
// and spread over 100 lots, against the same transaction (lock, check, insert, update) driven
// directly through the driver at the same concurrency, in the same run.
//
//   BENCH_BIDS_SECONDS=5    duration of each scenario
//   BENCH_BIDS_CLIENTS=64   concurrent clients
//
// The service runs as a child process (`node dist/main.js`), apart from the load generator.
//
// Standalone: `npm run build && node bench/bids.mjs` prints this section alone.
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { freshDatabase } from './db.mjs';
import { cpuOf, signer, startService } from './service.mjs';

const require = createRequire(import.meta.url);
const { Pool } = require('pg');
const { Keypair } = require('@stellar/stellar-sdk');
const { migrate, openDatabase } = require('../dist/db/orm.js');

const SECONDS = Number(process.env.BENCH_BIDS_SECONDS ?? 5);
const CLIENTS = Number(process.env.BENCH_BIDS_CLIENTS ?? 64);
const SPREAD = 100;

function post(agent, port, target, headers, body) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: target, method: 'POST', headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const percentile = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] : null);

/** Runs `clients` loops for the duration; each iteration returns whether its bid was accepted. */
async function drive(clients, attempt) {
  const end = performance.now() + SECONDS * 1000;
  const latencies = [];
  let accepted = 0;
  let failed = 0;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      while (performance.now() < end) {
        const started = performance.now();
        const outcome = await attempt(c);
        latencies.push(performance.now() - started);
        if (outcome === 'accepted') accepted++;
        else if (outcome === 'failed') failed++;
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    acceptedPerSecond: Math.round(accepted / SECONDS),
    attemptsPerSecond: Math.round(latencies.length / SECONDS),
    failed,
    medianMs: +percentile(latencies, 0.5).toFixed(2),
    p99Ms: +percentile(latencies, 0.99).toFixed(2),
  };
}

async function seed(pool, clients) {
  const platform = Keypair.random().publicKey();
  const users = Array.from({ length: clients }, () => Keypair.random());
  await pool.query(`insert into accounts (id, account_type, platform_id) values ($1, 2, $1)`, [platform]);
  await pool.query(`insert into accounts (id, account_type, platform_id) select unnest($1::text[]), 4, $2`, [users.map((u) => u.publicKey()), platform]);
  const { rows } = await pool.query(
    `insert into lots (lot_type, currency, start_price, buy_now_price, deposit, min_step, max_step, start_time, duration, end_time, organizer_id, publisher_id, details)
     select 1, 'USD', 1000, 0, 0, 0.01, 1000000000, now() - interval '1 minute', 86400, now() + interval '1 day', $1, $1, '{}'
     from generate_series(1, $2) returning id`,
    [platform, SPREAD + 1],
  );
  const lots = rows.map((r) => r.id);
  await pool.query(
    `insert into participants (lot_id, account_id, state) select l, u, 0 from unnest($1::bigint[]) l cross join unnest($2::text[]) u`,
    [lots, users.map((u) => u.publicKey())],
  );
  return { users, hot: lots[0], spread: lots.slice(1) };
}

/** The bid transaction as plain SQL: what the service does for an accepted plain bid. */
async function directBid(pool, lotId, accountId, amount) {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const { rows } = await client.query('select highest_bid, start_price, min_step, max_step from lots where id = $1 for update', [lotId]);
    const lot = rows[0];
    const floor = lot.highest_bid === null ? Number(lot.start_price) : Number(lot.highest_bid) + Number(lot.min_step);
    if (amount < floor) {
      await client.query('rollback');
      return 'refused';
    }
    const { rows: p } = await client.query('select id from participants where lot_id = $1 and account_id = $2', [lotId, accountId]);
    await client.query('insert into bids (lot_id, participant_id, account_id, amount) values ($1, $2, $3, $4)', [lotId, p[0].id, accountId, amount]);
    await client.query('update participants set current_bid = $1 where id = $2', [amount, p[0].id]);
    await client.query('update lots set highest_bid = $1 where id = $2', [amount, lotId]);
    await client.query('commit');
    return 'accepted';
  } catch {
    await client.query('rollback').catch(() => {});
    return 'failed';
  } finally {
    client.release();
  }
}

export async function bidsBench() {
  const db = await freshDatabase('bench_bids');
  const pool = new Pool({ connectionString: db.url, max: CLIENTS });
  // Dropping the database ends connections that are still closing after pool.end(); nothing else may fail.
  pool.on('error', (err) => {
    if (err.code !== '57P01') throw err;
  });
  let service;
  try {
    const orm = await openDatabase(db.url);
    await migrate(orm);
    await orm.close();
    const { users, hot, spread } = await seed(pool, CLIENTS);
    service = await startService(db.url);
    const { port } = service;
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    const signers = users.map(signer);
    // Amounts come from one increasing counter per lot, so most bids can lead when they arrive.
    const next = new Map();
    const amountFor = (lotId) => {
      const n = (next.get(lotId) ?? 100_000) + 1;
      next.set(lotId, n);
      return (1000 + n / 100).toFixed(2);
    };
    const httpBid = (pick) => async (c) => {
      const lotId = pick();
      const target = `/lots/${lotId}/bid_requests`;
      const body = Buffer.from(JSON.stringify({ data: { type: 'bid_requests', attributes: { amount: amountFor(lotId) } } }));
      const status = await post(agent, port, target, signers[c](target, body), body);
      return status === 204 ? 'accepted' : status >= 500 ? 'failed' : 'refused';
    };
    const sqlBid = (pick) => async (c) => {
      const lotId = pick();
      return directBid(pool, lotId, users[c].publicKey(), Number(amountFor(lotId)));
    };
    const hotLot = () => hot;
    const anyLot = () => spread[Math.floor(Math.random() * spread.length)];

    const result = { database: db.kind, server: 'child process: node dist/main.js', clients: CLIENTS, seconds: SECONDS };
    for (const [name, pick] of [['one hot lot', hotLot], [`${SPREAD} lots`, anyLot]]) {
      const direct = await drive(CLIENTS, sqlBid(pick));
      const cpuBefore = { server: cpuOf(service.pid), generator: process.cpuUsage() };
      const http = await drive(CLIENTS, httpBid(pick));
      // Cores busy while the bids ran (1.0: one core all the time); the machine's are shared with PostgreSQL.
      const generator = process.cpuUsage(cpuBefore.generator);
      http.cpuCores = {
        server: +((cpuOf(service.pid) - cpuBefore.server) / SECONDS).toFixed(2),
        loadGenerator: +((generator.user + generator.system) / 1e6 / SECONDS).toFixed(2),
      };
      result[name] = { http, directSql: direct, acceptedRatioToDirect: +(http.acceptedPerSecond / Math.max(1, direct.acceptedPerSecond)).toFixed(3) };
    }
    agent.destroy();
    return result;
  } finally {
    await service?.stop();
    await pool.end();
    await db.drop();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  bidsBench()
    .then((r) => console.log(JSON.stringify({ bids: r }, null, 2)))
    .catch((err) => {
      console.error(err);
      process.exit(1);
    });
}
