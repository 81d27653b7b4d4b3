// `npm run bench -- --ab <git-ref>`: this build beside the build of <git-ref>, in one run, on the
// lines a change of the data layer could slow: signed HTTP bids on one hot lot and over 100 lots
// (accepted per second), and lot listings (REST, p50). <git-ref> is checked out into a temporary
// worktree and built there with this checkout's node_modules. Each build gets a database of its
// own, seeded alike, and a service of its own (a child process); the phases alternate between the
// builds, the order of each pair swapped every round (old new, new old, ...), so that neither build
// always runs on a machine warmed, or loaded, by the other. New passes when its bids reach 0.95× the
// old build's throughput and its listings' p50 stays within 1.05× the old one's.
//
//   BENCH_AB_SECONDS=5     length of each phase
//   BENCH_AB_ROUNDS=3      pairs of phases per line
//   BENCH_AB_LOTS=20000    lots seeded for the listings (the bid lots come on top)
//   BENCH_BIDS_CLIENTS=64  concurrent bidders
//   BENCH_AB_LINES=hot,spread,listings  the lines run (all by default): to profile one alone
//                          (with BENCH_SERVICE_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR", bench/service.mjs)
//   BENCH_AB_STATEMENTS=1  each build on an embedded server with pg_stat_statements: every phase prints,
//                          per accepted bid or listing request, the statements, database time and WAL
//                          bytes of its build, and the first timed round the costliest statements
//                          (deterministic where throughput is not: which build sends more work)
//
// Beside each line's figure the table gives each build's service CPU (user + system, from /proc) per
// accepted bid or listing request: on a shared 2-core machine the throughput of one 5 s phase swings
// by ±20 % with what else runs, the work a build does per request less (a hot-lot bid's 521 and
// 551 µs in two runs of 29 November), though it too slows when the database's work beside it grows.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { Agent } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { Pool } = require('pg');
const { Keypair } = require('@stellar/stellar-sdk');
const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

const SECONDS = Number(process.env.BENCH_AB_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 3);
const LOTS = Number(process.env.BENCH_AB_LOTS ?? 20_000);
const CLIENTS = Number(process.env.BENCH_BIDS_CLIENTS ?? 64);
const THROUGHPUT_FLOOR = 0.95;
const LATENCY_CEILING = 1.05;
const STATEMENTS = process.env.BENCH_AB_STATEMENTS === '1';
const LINES = (process.env.BENCH_AB_LINES ?? 'hot,spread,listings').split(',');

function run(command, args, cwd) {
  const done = spawnSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  if (done.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${done.status})`);
}

/** A worktree of `ref` with its build, on this checkout's node_modules; `remove()` takes it away. */
function checkout(ref) {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), 'bench-ab-')), 'old');
  run('git', ['worktree', 'add', '--detach', dir, ref], ROOT);
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  const remove = () => {
    spawnSync('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT, stdio: 'ignore' });
    rmSync(path.dirname(dir), { recursive: true, force: true });
  };
  try {
    run(process.execPath, [path.join(ROOT, 'node_modules/@swc/cli/bin/swc.js'), 'src', '-d', 'dist', '--strip-leading-paths', '--copy-files', '--quiet'], dir);
  } catch (err) {
    remove();
    throw err;
  }
  return { dir, remove };
}

const median = (sorted) => sorted[Math.floor(sorted.length / 2)];

/** One build's database, seeded, and its service. */
async function prepare(name, root, { freshDatabase, seedLots, seedBidders, startService, signer }) {
  if (STATEMENTS && process.env.DATABASE_URL) throw new Error('BENCH_AB_STATEMENTS=1 needs embedded servers: unset DATABASE_URL');
  const db = await freshDatabase(`bench_ab_${name}`, { statements: STATEMENTS });
  const { migrate, openDatabase } = require(path.join(root, 'dist/db/orm.js'));
  const orm = await openDatabase(db.url);
  try {
    await migrate(orm);
  } finally {
    await orm.close();
  }
  const seeded = await seedLots(db.url, LOTS);
  const pool = new Pool({ connectionString: db.url, max: 4 });
  const bidders = await seedBidders(pool, CLIENTS).finally(() => pool.end());
  const keys = { MASTER_SEED: Keypair.random().secret(), LOG_SIGNING_SEED: Keypair.random().secret() };
  const service = await startService(db.url, keys, root);
  return { name, db, service, seeded, bidders, signers: bidders.users.map(signer), next: new Map() };
}

/** Answers whether every line passed. */
export async function abBench(ref) {
  // The bid phases last as long as the others.
  process.env.BENCH_BIDS_SECONDS = String(SECONDS);
  // Imported here: they load this checkout's dist, which `npm run bench` has just built.
  const { freshDatabase, resetStatementStats, statementStats } = await import('./db.mjs');
  const { seed: seedLots, commonFilters, fetchOk } = await import('./lots.mjs');
  const { seed: seedBidders, drive, post } = await import('./bids.mjs');
  const { startService, signer, cpuOf } = await import('./service.mjs');
  const old = checkout(ref);
  const builds = [];
  try {
    const tools = { freshDatabase, seedLots, seedBidders, startService, signer };
    builds.push(await prepare('old', old.dir, tools), await prepare('new', ROOT, tools));
    // An agent per bid phase, its sockets closed at its end: kept across phases, a socket idled
    // through the other build's phases past the server's keep-alive timeout, and the next phase's
    // first request on it ended the run with ECONNRESET.
    const phaseAgent = (work) => async (b) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 256 });
      try {
        return await work(b, agent);
      } finally {
        agent.destroy();
      }
    };
    const bid = (b, agent, pick) => async (c) => {
      const lotId = pick();
      const n = (b.next.get(lotId) ?? 100_000) + 1;
      b.next.set(lotId, n);
      const target = `/lots/${lotId}/bid_requests`;
      const body = Buffer.from(JSON.stringify({ data: { type: 'bid_requests', attributes: { amount: (1000 + n / 100).toFixed(2) } } }));
      const status = await post(agent, b.service.port, target, b.signers[c](target, body), body);
      return status === 204 ? 'accepted' : status >= 500 ? 'failed' : 'refused';
    };
    // A page of each common filter under the default sort, one request at a time, round and round.
    const listings = (b) => commonFilters(b.seeded).map(([, query]) => `/lots?page[limit]=20${query ? `&${query}` : ''}`);
    const listing = async (b) => {
      const base = `http://127.0.0.1:${b.service.port}`;
      const targets = listings(b);
      const ms = [];
      const end = performance.now() + SECONDS * 1000;
      for (let i = 0; performance.now() < end; i++) {
        const t0 = performance.now();
        await fetchOk(base, targets[i % targets.length]);
        ms.push(performance.now() - t0);
      }
      return ms;
    };
    const lines = [
      { key: 'hot', name: 'bids, one hot lot (accepted/s)', kind: 'throughput', phase: phaseAgent((b, agent) => drive(CLIENTS, bid(b, agent, () => b.bidders.hot))) },
      { key: 'spread', name: 'bids, 100 lots (accepted/s)', kind: 'throughput', phase: phaseAgent((b, agent) => drive(CLIENTS, bid(b, agent, () => b.bidders.spread[Math.floor(Math.random() * b.bidders.spread.length)]))) },
      { key: 'listings', name: 'lot listings, REST (p50 ms)', kind: 'latency', phase: listing },
    ].filter((l) => LINES.includes(l.key));
    if (!lines.length) throw new Error(`BENCH_AB_LINES names none of hot, spread, listings: ${LINES.join(',')}`);
    const figures = new Map(lines.map((l) => [l.name, { old: [], new: [] }]));
    const cpu = new Map(lines.map((l) => [l.name, { old: { seconds: 0, units: 0 }, new: { seconds: 0, units: 0 } }]));
    // Untimed: each build's code optimised and its caches filled before the first timed phase.
    for (const b of builds) for (const l of lines) await l.phase(b);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? [builds[1], builds[0]] : builds;
      for (const l of lines) {
        for (const b of order) {
          if (STATEMENTS) await resetStatementStats(b.db.url);
          const cpuBefore = cpuOf(b.service.pid);
          const result = await l.phase(b);
          const spent = cpu.get(l.name)[b.name];
          spent.seconds += cpuOf(b.service.pid) - cpuBefore;
          spent.units += l.kind === 'throughput' ? result.accepted : result.length;
          figures.get(l.name)[b.name].push(result);
          if (STATEMENTS) {
            const unit = l.kind === 'throughput' ? 'accepted bid' : 'request';
            const stats = await statementStats(b.db.url, l.kind === 'throughput' ? result.accepted : result.length, { top: 8, width: 160 });
            process.stderr.write(`ab round ${round + 1}, ${l.name}, ${b.name}, per ${unit}: ${JSON.stringify(stats.perUnit)}\n`);
            if (round === 0) for (const st of stats.statements) process.stderr.write(`    ${JSON.stringify(st)}\n`);
          }
          process.stderr.write(`ab round ${round + 1}, ${l.name}, ${b.name}: ${l.kind === 'latency' ? `${median([...result].sort((x, y) => x - y)).toFixed(2)} ms p50` : `${result.acceptedPerSecond}/s, ${result.failed} 5xx`}\n`);
        }
      }
    }
    const rows = lines.map((l) => {
      const { old: a, new: b } = figures.get(l.name);
      const perUnit = (build) => Math.round((cpu.get(l.name)[build].seconds / cpu.get(l.name)[build].units) * 1e6);
      const work = { 'old CPU µs': perUnit('old'), 'new CPU µs': perUnit('new') };
      if (l.kind === 'latency') {
        const p50 = (phases) => +median(phases.flat().sort((x, y) => x - y)).toFixed(3);
        const [o, n] = [p50(a), p50(b)];
        return { line: l.name, old: o, new: n, 'new/old': +(n / o).toFixed(3), pass: n <= LATENCY_CEILING * o ? '✓' : '✗', ...work };
      }
      const rate = (phases) => Math.round(phases.reduce((s, p) => s + p.acceptedPerSecond, 0) / phases.length);
      const [o, n] = [rate(a), rate(b)];
      const failed = [...a, ...b].reduce((s, p) => s + p.failed, 0);
      return { line: l.name, old: o, new: n, 'new/old': +(n / o).toFixed(3), pass: n >= THROUGHPUT_FLOOR * o && failed === 0 ? '✓' : '✗', ...work };
    });
    console.log(`\nThis build (new) beside ${ref} (old), same run: ${ROUNDS} alternating pairs of ${SECONDS} s phases per line; ✓ when bids ≥ ${THROUGHPUT_FLOOR}× old and listings' p50 ≤ ${LATENCY_CEILING}× old; CPU µs: the service's, per accepted bid or request`);
    console.table(rows);
    return rows.every((r) => r.pass === '✓');
  } finally {
    for (const b of builds) {
      await b.service.stop();
      await b.db.drop();
    }
    old.remove();
  }
}
