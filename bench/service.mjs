// The service under test, for the benchmarks: started as a child process (`node dist/main.js`), so
// that the load generator's own work is not counted as the server's, and requests signed for it.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { Keypair } = require('@stellar/stellar-sdk');
const { freePort } = require('../dist/db/embedded.host.js');
const { signHeaders } = require('../dist/auth/request-signer.js');
const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/** CPU seconds (user + system) a process has used; /proc counts in ticks of 1/100 s on Linux. */
export function cpuOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** VmRSS and VmHWM (the kernel's peak) of a process, in kB. */
export function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/**
 * Series of a service's /metrics (each its first sample, whatever its labels; null when absent or
 * refused), from one scrape: a scrape restarts the event-loop lag figures. METRICS_TOKEN is sent
 * when set (a caller that is not on the service's host needs it).
 */
export async function metricsOf(base, names) {
  const headers = process.env.METRICS_TOKEN ? { authorization: `Bearer ${process.env.METRICS_TOKEN}` } : {};
  const text = await fetch(`${base}/metrics`, { headers }).then((r) => (r.ok ? r.text() : ''), () => '');
  return names.map((name) => {
    const m = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
    return m ? Number(m[1]) : null;
  });
}

/** One series of a service's /metrics, as `metricsOf` reads it. */
export async function metricOf(base, name) {
  const [value] = await metricsOf(base, [name]);
  return value;
}

/**
 * Starts the service on a database and waits until it is ready; `stop()` ends it with SIGTERM.
 * `root` is the checkout whose build runs (`npm run bench -- --ab` runs an older one beside this).
 */
export async function startService(url, env = {}, root = ROOT) {
  const port = await freePort();
  // BENCH_SERVICE_NODE_ARGS passes flags to the service's node, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const nodeArgs = (process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'dist/main.js')], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'bench-service-')),
      // As `npm start` and the image run it (docs/operations.md, "Memory").
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
      MASTER_SEED: Keypair.random().secret(),
      // A log line per request would be part of what is measured; warnings still show.
      LOG_LEVEL: 'warn',
      // Every client of a benchmark comes from this one address: the per-address caps and rate
      // limits, meant for strangers on the internet, would measure themselves instead.
      WS_MAX_CONNECTIONS_PER_ADDRESS: '100000',
      WS_MAX_SUBSCRIPTIONS_PER_ADDRESS: '1000000',
      WS_SUBSCRIPTION_BUDGET_PER_ADDRESS: '1000000000',
      RATE_LIMIT_WRITES_PER_ADDRESS: '0',
      RATE_LIMIT_WRITES_PER_ACCOUNT: '0',
      RATE_LIMIT_ACCOUNTS_PER_ADDRESS: '0',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false);
    if (ready) {
      return {
        port,
        pid: child.pid,
        stop: async () => {
          child.kill('SIGTERM');
          await exited;
        },
      };
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error('the service did not become ready within 30 s');
}

/** Signs POSTs as `keypair` (the service's own signer, Node's native ed25519): target, body → headers. */
export function signer(keypair) {
  return (target, body) => {
    const headers = { 'content-type': 'application/vnd.api+json', 'content-length': String(body.length) };
    signHeaders('POST', target, headers, body, { keypair });
    return headers;
  };
}

const postAgent = new Agent({ keepAlive: true, maxSockets: 1 });

/**
 * One signed POST at a time through a kept-alive socket, as a client of the API does; answers its status and body text.
 * `accept` is JSON:API's by default; Apollo answers 406 to it, so a GraphQL post asks for plain JSON.
 */
export function signedPost(base, target, body, keypair, accept = 'application/vnd.api+json') {
  const bytes = Buffer.from(JSON.stringify(body));
  const headers = { 'content-type': 'application/json', accept };
  signHeaders('POST', target, headers, bytes, { keypair });
  return new Promise((resolve, reject) => {
    const req = request(`${base}${target}`, { agent: postAgent, method: 'POST', headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(bytes);
  });
}

/** Closes the kept-alive sockets of `signedPost`, so that a service in this process can close. */
export const endPosts = () => postAgent.destroy();
