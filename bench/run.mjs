// `npm run bench`: the benchmarks on the embedded PostgreSQL (what `npm start` uses by default) and
// on a PostgreSQL server (DATABASE_URL, else the local one if it answers), one after the other in the
// same run, then their headline figures side by side. BENCH_TARGETS=embedded (or server) runs one.
// `npm run bench -- --ab <git-ref>` runs instead this build beside <git-ref>'s (bench/ab.mjs), on the
// server when one answers, else on embedded PostgreSQL.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { Client } = require('pg');
const here = path.dirname(fileURLToPath(import.meta.url));
const SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function answers(url) {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function runSuite(target) {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-run-'));
  const out = path.join(dir, 'results.json');
  // The service in the suite's process runs as `npm start` runs it (src/process-defaults.ts).
  const env = { NODE_ENV: 'production', ...process.env, BENCH_OUT: out };
  if (target === 'server') env.DATABASE_URL = SERVER;
  else delete env.DATABASE_URL;
  console.error(`== bench on the ${target === 'server' ? 'PostgreSQL server' : 'embedded PostgreSQL'}`);
  const run = spawnSync(process.execPath, [path.join(here, 'suite.mjs')], { stdio: 'inherit', env });
  try {
    if (run.status !== 0) throw new Error(`the ${target} bench failed (exit ${run.status})`);
    return JSON.parse(readFileSync(out, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Numeric figures by path (`bids.oneHotLot.http.acceptedPerSecond`), for the side-by-side table. */
function figures(value, prefix = '', into = {}) {
  if (typeof value === 'number') into[prefix] = value;
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) figures(v, prefix ? `${prefix}.${k}` : k, into);
  return into;
}

const HEADLINE = /(PerSecond|p99|p99Ms|median|p50|ratio\w*)$/i;

async function main() {
  const ab = process.argv.indexOf('--ab');
  if (ab !== -1) {
    const ref = process.argv[ab + 1];
    if (!ref) throw new Error('--ab takes the git ref of the build to compare with');
    // pg_stat_statements needs servers of the bench's own (bench/ab.mjs, BENCH_AB_STATEMENTS).
    if (process.env.BENCH_AB_STATEMENTS !== '1' && (await answers(SERVER))) process.env.DATABASE_URL = SERVER;
    // The services run as `npm start` runs them (src/process-defaults.ts).
    process.env.NODE_ENV ??= 'production';
    const { abBench } = await import('./ab.mjs');
    if (!(await abBench(ref))) process.exitCode = 1;
    return;
  }
  const wanted = (process.env.BENCH_TARGETS ?? 'embedded,server').split(',').map((s) => s.trim());
  const results = {};
  for (const target of wanted) {
    if (target === 'server' && !(await answers(SERVER))) {
      console.error(`no PostgreSQL server answers at ${SERVER.replace(/:[^:@/]*@/, ':***@')}: the server bench is left out`);
      continue;
    }
    results[target] = runSuite(target);
  }
  console.log(JSON.stringify(results, null, 2));
  for (const [target, r] of Object.entries(results)) {
    for (const section of [r.bids, r.lots, r.lotCreate, r.platformStats, r.fanout, r.stall, r.stallLive, r.memory]) for (const line of section?.goals ?? []) console.log(`${target}: ${line}`);
  }
  if (results.embedded && results.server) {
    const e = figures(results.embedded);
    const s = figures(results.server);
    const rows = Object.keys(e).filter((k) => HEADLINE.test(k) && k in s).map((k) => ({ figure: k, embedded: e[k], server: s[k], 'embedded/server': s[k] ? +(e[k] / s[k]).toFixed(2) : null }));
    console.log('\nEmbedded PostgreSQL beside the server, same run:');
    console.table(rows);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
