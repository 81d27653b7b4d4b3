// The `bids` section of `npm run bench`: signed HTTP bids from concurrent clients on one hot lot
// and spread over 100 lots, against the same transaction (lock, check, insert, update) driven
// directly through the driver at the same concurrency, in the same run; over 100 lots also against
// the contract-shaped transaction (with the replay record, the account read and the overbid
// notification the contract adds) and the minimal contract transaction (bench/minimal-bid.mjs:
// the least the contract demands, prepared and pipelined, on tables with only the indexes it
// needs), which the database-minimum goal is measured against. Each bid phase reports pg_stat_statements per accepted bid
// where the database has it (bench/db.mjs), the service's rounds (how many, their size and time)
// and its event loop's lag from its /metrics, and goals 1 and 2 as lines with ✓ or ✗.
// The bid log's line: the same HTTP bids, hot lot and 100 lots, against a second service of the same
// build on the same database with the transparency log's append switched off (TLOG_APPEND=off,
// which the service takes only under NODE_ENV=bench), each service warmed by a phase of the
// workload first, then in blocks of four phases, with, without, without, with: a block's ratio is
// its bids with the log over its bids without, which a drift of the machine's speed during the
// block (linear in time) does not move; the line gives the median of the blocks' ratios. Pairs
// of alternating order did not cancel it: the services sped up by 40% over their first phases
// (JIT, caches), and an odd count of pairs held one more pair with the log first.
//
//   BENCH_BIDS_SECONDS=5    duration of each scenario
//   BENCH_LOG_BLOCKS=2      blocks of four phases with and without the log, per workload
//   BENCH_BIDS_CLIENTS=64   concurrent clients
//
// The service runs as a child process (`node dist/main.js`), apart from the load generator.
//
// Standalone: `npm run build && node bench/bids.mjs` prints this section alone.
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { freshDatabase, resetStatementStats, statementStats } from './db.mjs';
import { goal } from './goals.mjs';
import { randomBytes } from 'node:crypto';
import { markMemory } from './memory.mjs';
import { minimalBid, prepareMinimal } from './minimal-bid.mjs';
import { cpuOf, metricsOf, signer, startService } from './service.mjs';

const require = createRequire(import.meta.url);
const { Pool } = require('pg');
const { Keypair } = require('@stellar/stellar-sdk');
const { migrate, openDatabase } = require('../dist/db/orm.js');

const SECONDS = Number(process.env.BENCH_BIDS_SECONDS ?? 5);
const CLIENTS = Number(process.env.BENCH_BIDS_CLIENTS ?? 64);
const SPREAD = 100;
const LOG_BLOCKS = Number(process.env.BENCH_LOG_BLOCKS ?? 2);
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export function post(agent, port, target, headers, body) {
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
export async function drive(clients, attempt) {
  const end = performance.now() + SECONDS * 1000;
  const latencies = [];
  let accepted = 0;
  let failed = 0;
  const began = performance.now();
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
  // Loops finish their last attempt after the end: count the time they actually took.
  const seconds = (performance.now() - began) / 1000;
  return {
    accepted,
    acceptedPerSecond: Math.round(accepted / seconds),
    attemptsPerSecond: Math.round(latencies.length / seconds),
    failed,
    medianMs: +percentile(latencies, 0.5).toFixed(2),
    p99Ms: +percentile(latencies, 0.99).toFixed(2),
  };
}

export async function seed(pool, clients) {
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

/** The lot locked for the bid, as both direct baselines read it. */
async function lockedLot(client, lotId) {
  const { rows } = await client.query('select highest_bid, start_price, min_step, max_step from lots where id = $1 for update', [lotId]);
  return rows[0];
}

/** The least amount the lot takes next: the start price, then the highest bid plus the minimal step. */
const floorOf = (lot) => (lot.highest_bid === null ? Number(lot.start_price) : Number(lot.highest_bid) + Number(lot.min_step));

/** A baseline bid's transaction: `work` answers 'accepted' (committed) or 'refused' (rolled back). */
async function bidTransaction(pool, work) {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const outcome = await work(client);
    await client.query(outcome === 'accepted' ? 'commit' : 'rollback');
    return outcome;
  } catch {
    await client.query('rollback').catch(() => {});
    return 'failed';
  } finally {
    client.release();
  }
}

/** The bid transaction as plain SQL: what the service does for an accepted plain bid. */
function directBid(pool, lotId, accountId, amount) {
  return bidTransaction(pool, async (client) => {
    const lot = await lockedLot(client, lotId);
    if (amount < floorOf(lot)) return 'refused';
    const { rows: p } = await client.query('select id from participants where lot_id = $1 and account_id = $2', [lotId, accountId]);
    await client.query('insert into bids (lot_id, participant_id, account_id, amount) values ($1, $2, $3, $4)', [lotId, p[0].id, accountId, amount]);
    await client.query('update participants set current_bid = $1 where id = $2', [amount, p[0].id]);
    await client.query('update lots set highest_bid = $1 where id = $2', [amount, lotId]);
    return 'accepted';
  });
}

/**
 * The bid as the contract shapes it, as plain SQL: the replay record and the account read of
 * authentication, then the plain bid's statements and the overbid notification of the previous
 * leader.
 */
function contractBid(pool, lotId, accountId, amount) {
  return bidTransaction(pool, async (client) => {
    await client.query(`insert into seen_signatures (digest, expires_at) values ($1, now() + interval '10 minutes')`, [randomBytes(32)]);
    await client.query('select a.id, a.account_type, a.platform_id, b.state from accounts a left join blacklist b on b.account_id = a.id where a.id = $1', [accountId]);
    const lot = await lockedLot(client, lotId);
    if (amount < floorOf(lot)) return 'refused';
    const { rows: p } = await client.query('select id from participants where lot_id = $1 and account_id = $2', [lotId, accountId]);
    const { rows: leader } = await client.query('select account_id from participants where lot_id = $1 and current_bid = $2', [lotId, lot.highest_bid]);
    await client.query('insert into bids (lot_id, participant_id, account_id, amount) values ($1, $2, $3, $4)', [lotId, p[0].id, accountId, amount]);
    await client.query('update participants set current_bid = $1, updated_at = now() where id = $2', [amount, p[0].id]);
    await client.query('update lots set highest_bid = $1, updated_at = now() where id = $2', [amount, lotId]);
    if (leader[0] && leader[0].account_id !== accountId) {
      await client.query(`insert into notifications (recipient, type, meta) values ($1, 6, jsonb_build_object('lot_id', $2::text))`, [leader[0].account_id, lotId]);
    }
    return 'accepted';
  });
}

/**
 * What must hold after any bids: on every lot the accepted amounts rise strictly
 * in the order they were placed, the lot's highest bid is the last of them, and every
 * participant's current bid is its own greatest. Answers the lots that break any of it.
 */
async function brokenInvariants(pool) {
  const { rows } = await pool.query(`
    select count(*)::int as broken from (
      select l.id from lots l
       where exists (select 1 from (select amount, lag(amount) over (order by id) as before from bids where lot_id = l.id) b where b.amount <= b.before)
          or l.highest_bid is distinct from (select amount from bids where lot_id = l.id order by id desc limit 1)
          or exists (select 1 from participants p where p.lot_id = l.id
                      and p.current_bid is distinct from (select max(amount) from bids where participant_id = p.id))
    ) broken`);
  return rows[0].broken;
}

const ROUND_SERIES = ['auction_bid_round_seconds_sum', 'auction_bid_round_seconds_count', 'auction_bid_round_size_sum'];
const LAG_SERIES = ['auction_nodejs_eventloop_lag_p50_seconds', 'auction_nodejs_eventloop_lag_p99_seconds'];
/** prom-client times the event loop with a timer every 10 ms (its default) and reports each whole wait, these 10 ms included. */
const LAG_TIMER_MS = 10;

/** The service's round counters now; the scrape also restarts its event-loop lag figures. */
const roundCounters = (base) => metricsOf(base, ROUND_SERIES);

/**
 * The rounds of a phase from the service's /metrics: how many, the requests each decided and the
 * time each took on average (from asking for a connection to its commit answered), and how late
 * the event loop's timer ran since `roundCounters`. A round's two round trips wait for the event
 * loop as well as for the database.
 */
async function roundsSince(base, [seconds, count, size]) {
  const [seconds1, count1, size1, lag50, lag99] = await metricsOf(base, [...ROUND_SERIES, ...LAG_SERIES]);
  const rounds = count1 - count;
  return {
    rounds,
    requestsPerRound: +((size1 - size) / Math.max(1, rounds)).toFixed(1),
    msPerRound: +((1000 * (seconds1 - seconds)) / Math.max(1, rounds)).toFixed(2),
    eventLoopLagMs: { p50: +(lag50 * 1000 - LAG_TIMER_MS).toFixed(2), p99: +(lag99 * 1000 - LAG_TIMER_MS).toFixed(2) },
  };
}

/** Once `pool` holds no connection: its idle ones close after its idleTimeoutMillis. */
async function closed(pool) {
  while (pool.totalCount > 0) await new Promise((resolve) => setTimeout(resolve, 50));
}

export async function bidsBench() {
  const db = await freshDatabase('bench_bids', { statements: true });
  // Idle connections close at once, so that `closed` can wait for a pool to hold none.
  const pool = new Pool({ connectionString: db.url, max: CLIENTS, idleTimeoutMillis: 100 });
  // Dropping the database ends connections that are still closing after pool.end(); nothing else may fail.
  pool.on('error', (err) => {
    if (err.code !== '57P01') throw err;
  });
  const minimalPool = new Pool({ connectionString: db.url, max: CLIENTS, idleTimeoutMillis: 100, pipeline: true });
  minimalPool.on('error', (err) => {
    if (err.code !== '57P01') throw err;
  });
  let service;
  let unlogged;
  try {
    const orm = await openDatabase(db.url);
    await migrate(orm);
    await orm.close();
    const { users, hot, spread } = await seed(pool, CLIENTS);
    await prepareMinimal(pool, spread);
    // Amounts come from one increasing counter per lot, so most bids can lead when they arrive.
    const next = new Map();
    const amountFor = (lotId) => {
      const n = (next.get(lotId) ?? 100_000) + 1;
      next.set(lotId, n);
      return (1000 + n / 100).toFixed(2);
    };
    const sqlBid = (pick) => async (c) => {
      const lotId = pick();
      return directBid(pool, lotId, users[c].publicKey(), Number(amountFor(lotId)));
    };
    const contractSqlBid = (pick) => async (c) => {
      const lotId = pick();
      return contractBid(pool, lotId, users[c].publicKey(), Number(amountFor(lotId)));
    };
    const minimalSqlBid = (pick) => async (c) => {
      const lotId = pick();
      return minimalBid(minimalPool, lotId, users[c].publicKey(), Number(amountFor(lotId)));
    };
    const hotLot = () => hot;
    const anyLot = () => spread[Math.floor(Math.random() * spread.length)];
    /** A phase, with what pg_stat_statements saw of it per accepted bid. */
    const measured = async (run) => {
      if (db.statements) await resetStatementStats(db.url);
      const figures = await run();
      if (db.statements) figures.statementsPerAcceptedBid = await statementStats(db.url, figures.accepted);
      return figures;
    };
    // The direct transactions first, then the services: each pool's connections closed before the
    // next set opens. All at once (two pools of CLIENTS beside two services' pools) they outnumbered
    // the 100 connections a PostgreSQL server allows by default, and the server bench stopped there.
    const hotDirect = await measured(() => drive(CLIENTS, sqlBid(hotLot)));
    const spreadDirect = await measured(() => drive(CLIENTS, sqlBid(anyLot)));
    const spreadContract = await measured(() => drive(CLIENTS, contractSqlBid(anyLot)));
    await closed(pool);
    const spreadMinimal = await measured(() => drive(CLIENTS, minimalSqlBid(anyLot)));
    await closed(minimalPool);

    // Two instances on one database hold the same keys (docs/operations.md).
    const keys = { MASTER_SEED: Keypair.random().secret(), LOG_SIGNING_SEED: Keypair.random().secret() };
    service = await startService(db.url, keys);
    // NODE_ENV=bench changes nothing on the REST bid path but lets TLOG_APPEND=off through (src/config.ts).
    unlogged = await startService(db.url, { ...keys, NODE_ENV: 'bench', TLOG_APPEND: 'off' });
    await markMemory('bids', 'start', service);
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    const signers = users.map(signer);
    const httpBid = (pick, to = service.port) => async (c) => {
      const lotId = pick();
      const target = `/lots/${lotId}/bid_requests`;
      const body = Buffer.from(JSON.stringify({ data: { type: 'bid_requests', attributes: { amount: amountFor(lotId) } } }));
      const status = await post(agent, to, target, signers[c](target, body), body);
      return status === 204 ? 'accepted' : status >= 500 ? 'failed' : 'refused';
    };
    const serverPhase = (pick, target = service) =>
      measured(async () => {
        const counters = await roundCounters(`http://127.0.0.1:${target.port}`);
        const cpuBefore = { server: cpuOf(target.pid), generator: process.cpuUsage() };
        const http = await drive(CLIENTS, httpBid(pick, target.port));
        // Cores busy while the bids ran (1.0: one core all the time); the machine's are shared with PostgreSQL.
        const generator = process.cpuUsage(cpuBefore.generator);
        http.cpuSeconds = { server: cpuOf(target.pid) - cpuBefore.server, loadGenerator: (generator.user + generator.system) / 1e6 };
        http.cpuCores = {
          server: +(http.cpuSeconds.server / SECONDS).toFixed(2),
          loadGenerator: +(http.cpuSeconds.loadGenerator / SECONDS).toFixed(2),
        };
        http.rounds = await roundsSince(`http://127.0.0.1:${target.port}`, counters);
        return http;
      });

    /**
     * Blocks of phases with and without the log (with, without, without, with), after a phase of
     * the workload that warms the service without the log (the one with it ran the goals' phase):
     * that phase is the one reported as "without the log", outside the ratios.
     */
    const logBlocks = async (pick) => {
      const warm = await serverPhase(pick, unlogged);
      const blocks = [];
      for (let i = 0; i < LOG_BLOCKS; i++) {
        const first = await serverPhase(pick);
        const without = [await serverPhase(pick, unlogged), await serverPhase(pick, unlogged)];
        blocks.push({ logged: [first, await serverPhase(pick)], without });
      }
      return { warm, blocks };
    };

    const result = { database: db.kind, server: 'child process: node dist/main.js', clients: CLIENTS, seconds: SECONDS };
    if (!db.statements) result.statementStats = `not measured: ${db.unavailable}`;
    const hotHttp = await serverPhase(hotLot);
    const { warm: hotUnlogged, blocks: hotBlocks } = await logBlocks(hotLot);
    await markMemory('bids', 'after one hot lot', service);
    // The direct clients race for one row and most of their amounts arrive after a higher one
    // (refused): its accepted bids tell the order of the race, its transactions (accepted or
    // refused, each locking the row) what the database does for one lot.
    result['one hot lot'] = { http: hotHttp, directSql: hotDirect, acceptedRatioToDirectTransactions: +(hotHttp.acceptedPerSecond / Math.max(1, hotDirect.attemptsPerSecond)).toFixed(3) };
    const spreadHttp = await serverPhase(anyLot);
    const { warm: spreadUnlogged, blocks: spreadBlocks } = await logBlocks(anyLot);
    await markMemory('bids', `after ${SPREAD} lots`, service);
    const broken = await brokenInvariants(pool);
    result[`${SPREAD} lots`] = {
      http: spreadHttp,
      directSql: spreadDirect,
      contractShapedSql: spreadContract,
      minimalContractSql: spreadMinimal,
      acceptedRatioToDirect: +(spreadHttp.acceptedPerSecond / Math.max(1, spreadDirect.acceptedPerSecond)).toFixed(3),
      acceptedRatioToContractShaped: +(spreadHttp.acceptedPerSecond / Math.max(1, spreadContract.acceptedPerSecond)).toFixed(3),
      acceptedRatioToMinimalContract: +(spreadHttp.acceptedPerSecond / Math.max(1, spreadMinimal.acceptedPerSecond)).toFixed(3),
      lotsBreakingInvariants: broken,
    };
    // What the transparency log costs, against the same build without its append, same run.
    const bids = (phases) => phases.reduce((n, p) => n + p.accepted, 0);
    const blockRatio = ({ logged, without }) => +(bids(logged) / Math.max(1, bids(without))).toFixed(3);
    const logRatio = (blocks) => +median(blocks.map(blockRatio)).toFixed(3);
    const rates = (blocks, side) => blocks.map((b) => b[side].map((p) => p.acceptedPerSecond).join(' + ')).join(', ');
    result['without the log'] = {
      'one hot lot': { http: hotUnlogged, blocks: hotBlocks.map(blockRatio), ratioWithLog: logRatio(hotBlocks) },
      [`${SPREAD} lots`]: { http: spreadUnlogged, blocks: spreadBlocks.map(blockRatio), ratioWithLog: logRatio(spreadBlocks) },
    };
    // The service's CPU per accepted bid: what the log costs the service, whatever the other processes took of the machine.
    const cpuPerBid = (blocks, side) => {
      const phases = blocks.flatMap((b) => b[side]);
      return Math.round((phases.reduce((s, p) => s + p.cpuSeconds.server, 0) / Math.max(1, bids(phases))) * 1e6);
    };
    const logLine = (name, blocks) =>
      `${name}: ${rates(blocks, 'logged')}/s with the log, ${rates(blocks, 'without')}/s without, in ${blocks.length} blocks (with, without, without, with; ratios ${blocks.map(blockRatio).join(', ')}; the service's CPU ${cpuPerBid(blocks, 'logged')} µs per accepted bid with the log, ${cpuPerBid(blocks, 'without')} without), same run: median ${logRatio(blocks)}× ≥ 0.9×`;
    const unloggedFailures = [hotUnlogged, spreadUnlogged, ...[...hotBlocks, ...spreadBlocks].flatMap((b) => b.without)].reduce((n, p) => n + p.failed, 0);
    const spreadRatio = result[`${SPREAD} lots`].acceptedRatioToContractShaped;
    const minimalRatio = result[`${SPREAD} lots`].acceptedRatioToMinimalContract;
    // Each client sends its next bid when the last is answered: at the database's own rate, a
    // request waits CLIENTS / rate on average (Little's law), which no p99 can beat.
    const waits = (direct, name) => `${name}, same run: p99 ${direct.p99Ms} ms; ${CLIENTS} clients at its ${direct.attemptsPerSecond} transactions/s wait ${Math.round((1000 * CLIENTS) / Math.max(1, direct.attemptsPerSecond))} ms on average`;
    result.goals = [
      goal('the bid log, bids with and without the transparency log, same run', [
        { text: logLine('one hot lot', hotBlocks), ok: logRatio(hotBlocks) >= 0.9 },
        { text: logLine(`${SPREAD} lots`, spreadBlocks), ok: logRatio(spreadBlocks) >= 0.9 },
        { text: `${unloggedFailures} 5xx without the log`, ok: unloggedFailures === 0 },
      ]),
      goal(`goal 1, bids across ${SPREAD} lots`, [
        { text: `${spreadHttp.acceptedPerSecond}/s = ${spreadRatio}× contract-shaped direct SQL (${spreadContract.acceptedPerSecond}/s, same run) ≥ 0.6×`, ok: spreadRatio >= 0.6 },
        { text: `p99 ${spreadHttp.p99Ms} ms ≤ 60 ms (${waits(spreadContract, 'contract-shaped direct SQL')})`, ok: spreadHttp.p99Ms <= 60 },
        { text: `${spreadHttp.failed} 5xx`, ok: spreadHttp.failed === 0 },
        { text: `${broken} lots breaking the invariants (all lots, after every phase)`, ok: broken === 0 },
      ]),
      goal(`the database minimum, bids across ${SPREAD} lots against the minimal contract transaction`, [
        { text: `${spreadHttp.acceptedPerSecond}/s = ${minimalRatio}× the minimal contract transaction (${spreadMinimal.acceptedPerSecond}/s, same run) ≥ 0.6×`, ok: minimalRatio >= 0.6 },
        { text: `p99 ${spreadHttp.p99Ms} ms ≤ 1.5× its p99 (${spreadMinimal.p99Ms} ms, same run)`, ok: spreadHttp.p99Ms <= 1.5 * spreadMinimal.p99Ms },
      ]),
      goal('goal 2, bids on one hot lot', [
        { text: `${hotHttp.acceptedPerSecond}/s ≥ 2,500/s (${result['one hot lot'].acceptedRatioToDirectTransactions}× the hot-lot direct SQL's ${hotDirect.attemptsPerSecond} transactions/s, ${hotDirect.acceptedPerSecond}/s of them accepted, same run)`, ok: hotHttp.acceptedPerSecond >= 2500 },
        { text: `p99 ${hotHttp.p99Ms} ms ≤ 50 ms (${waits(hotDirect, 'hot-lot direct SQL')})`, ok: hotHttp.p99Ms <= 50 },
        { text: `${hotHttp.failed} 5xx`, ok: hotHttp.failed === 0 },
      ]),
    ];
    for (const [name, phase] of [['one hot lot', hotHttp], [`${SPREAD} lots`, spreadHttp], [`${SPREAD} lots without the log`, spreadUnlogged]]) {
      if (!phase.statementsPerAcceptedBid) continue;
      const { perUnit, statements } = phase.statementsPerAcceptedBid;
      console.error(`pg_stat_statements, ${name}, per accepted bid: ${perUnit.statements} statements, ${perUnit.databaseMs} ms, ${perUnit.walBytes} WAL bytes`);
      console.table(statements);
    }
    for (const [name, phase] of [['one hot lot', hotHttp], [`${SPREAD} lots`, spreadHttp]]) {
      const r = phase.rounds;
      console.error(`${name}: ${r.rounds} rounds of ${r.requestsPerRound} requests, ${r.msPerRound} ms each from asking for a connection to commit; event loop lag p50 ${r.eventLoopLagMs.p50} ms, p99 ${r.eventLoopLagMs.p99} ms; service ${phase.cpuCores.server} cores`);
    }
    for (const line of result.goals) console.error(line);
    agent.destroy();
    return result;
  } finally {
    await service?.stop();
    await unlogged?.stop();
    await pool.end();
    await minimalPool.end();
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
