// Goal 5 in `npm run bench`: the memory of each process that serves a phase, at its start,
// after each phase and at its end (RSS from /proc, V8 heap used and heap after the latest full
// collection from the service's /metrics), then a soak of its own service (bench/soak.mjs,
// BENCH_SOAK_MINUTES, 0 leaves it out) whose verdict is the goal's ✓ or ✗: the phases above last
// seconds each, too short to tell memory settling from memory climbing.
//
//   BENCH_SOAK_MINUTES=30      minutes of mixed traffic, as the issue asks: a document store and
//                              compiled plans that fill for the first minutes leave a 10-minute
//                              soak judging its middle third while they still grow
//   BENCH_SOAK_SUBSCRIBERS=200 bidPlaced subscribers during the soak
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshDatabase } from './db.mjs';
import { memoryOf, metricOf, startService } from './service.mjs';

const require = createRequire(import.meta.url);
const { Keypair } = require('@stellar/stellar-sdk');
const { heapUsedAfterFullGc } = require('../dist/metrics/heap-after-gc.js');

const here = path.dirname(fileURLToPath(import.meta.url));
const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 30);
const SUBSCRIBERS = Number(process.env.BENCH_SOAK_SUBSCRIBERS ?? 200);

const mb = (bytes) => (bytes === null || bytes === undefined || Number.isNaN(bytes) ? null : +(bytes / 1048576).toFixed(1));
const marks = [];

/** The memory of a service child process now; the heap figures come from its /metrics. */
async function serviceMemory({ pid, port }) {
  const base = `http://127.0.0.1:${port}`;
  return {
    rssMb: +(memoryOf(pid).rss / 1024).toFixed(1),
    heapUsedMb: mb(await metricOf(base, 'auction_nodejs_heap_size_used_bytes')),
    // 0 until the first full collection.
    heapAfterFullGcMb: mb((await metricOf(base, 'auction_nodejs_heap_used_after_full_gc_bytes')) || null),
  };
}

/**
 * Records the memory of the process serving `section` after `phase`. `service` is a child started
 * by bench/service.mjs; without one, the app runs in this process, beside the load generator.
 */
export async function markMemory(section, phase, service) {
  const figures = service
    ? await serviceMemory(service)
    : { rssMb: mb(process.memoryUsage().rss), heapUsedMb: mb(process.memoryUsage().heapUsed), heapAfterFullGcMb: mb(heapUsedAfterFullGc()) };
  marks.push({ section, phase, process: service ? `service ${service.pid}` : `bench ${process.pid} (app in-process)`, ...figures });
}

/** Runs bench/soak.mjs against `base` and answers its report (it prints it as JSON, then one line). */
function soak(base, pid, masterSeed) {
  const args = [path.join(here, 'soak.mjs'), '--minutes', String(MINUTES), '--base', base, '--pid', String(pid), '--rss-seconds', String(Math.max(10, MINUTES * 2)), '--subscribers', String(SUBSCRIBERS)];
  const child = spawn(process.execPath, args, { env: { ...process.env, MASTER_SEED: masterSeed }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', () => {
      const json = out.slice(0, out.lastIndexOf('\n}') + 2);
      try {
        resolve({ report: JSON.parse(json), verdict: out.slice(json.length).trim() });
      } catch {
        reject(new Error(`the soak printed no report: ${out.slice(-500)}`));
      }
    });
  });
}

/** The soak phase of goal 5: a service of its own on a fresh database, under mixed traffic for MINUTES. */
async function soakPhase() {
  const db = await freshDatabase('bench_soak');
  const masterSeed = Keypair.random().secret();
  let service;
  try {
    service = await startService(db.url, { MASTER_SEED: masterSeed });
    await markMemory('soak', 'start', service);
    const { report, verdict } = await soak(`http://127.0.0.1:${service.port}`, service.pid, masterSeed);
    await markMemory('soak', 'end', service);
    return { report, verdict };
  } finally {
    await service?.stop();
    await db.drop();
  }
}

/** Goal 5's table and line: every mark, then the soak's two settling rules. */
export async function memoryGoal() {
  const result = { marks };
  if (MINUTES > 0) {
    const { report, verdict } = await soakPhase();
    const { requests, requestsPerSecond, minutes, statuses, heapAfterFullGcSettles: heap, rssSettles: rss } = report;
    // What else the soak found (5xx, time-outs, refusals it did not expect, deliveries missing).
    const problems = Object.fromEntries(['serverErrors', 'timeouts', 'unexpected', 'deliveriesMissing', 'logErrors'].filter((k) => Array.isArray(report[k]) && report[k].length).map((k) => [k, report[k]]));
    result.soak = { minutes, requests, requestsPerSecond, statuses, heapAfterFullGcMb: report.heapAfterFullGcMb, rssMb: report.rssMb, heapAfterFullGcSettles: heap, rssSettles: rss, problems, verdict };
    const rule = (name, r) => (r?.settled == null ? `${name}: not judged (${r?.why ?? 'no samples'})` : `${name}, median of the middle third ${r.middleThirdMedianMb} MB → last third ${r.lastThirdMedianMb} MB (≤ 1.1×) ${r.mark}`);
    const ok = heap?.settled === true && rss?.settled === true;
    result.goals = [`${ok ? '✓' : '✗'} goal 5, memory stays flat: ${minutes} min soak, ${requestsPerSecond} requests/s; ${rule('heap after full GC', heap)}; ${rule('RSS', rss)}`];
  } else {
    result.goals = ['✗ goal 5, memory stays flat: not judged (BENCH_SOAK_MINUTES=0: no soak ran)'];
  }
  console.error('\nMemory (goal 5): each phase\'s serving process, same run');
  console.table(marks);
  for (const line of result.goals) console.error(line);
  if (result.soak && Object.keys(result.soak.problems).length) console.error(`the soak also found: ${JSON.stringify(result.soak.problems).slice(0, 2000)}`);
  return result;
}
