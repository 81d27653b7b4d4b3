// The benchmarks on one database (DATABASE_URL's server, else an embedded one): throughput of the
// service's hot paths, each reported as a ratio to a baseline measured in the same run (the machine
// is noisy; absolute numbers travel badly). Writes its results as JSON to BENCH_OUT.
import { createHash, createPublicKey, verify } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { bidsBench } from './bids.mjs';
import { freshDatabase } from './db.mjs';
import { fanoutBench } from './fanout.mjs';
import { lotCreateBench } from './lot-create.mjs';
import { lotsBench } from './lots.mjs';
import { markMemory, memoryGoal } from './memory.mjs';
import { platformStatsBench } from './platform-stats.mjs';
import { searchesBench } from './searches.mjs';
import { stallBench } from './stall.mjs';
import { stallLiveBench } from './stall-live.mjs';

const require = createRequire(import.meta.url);
const autocannon = require('autocannon');
const { Keypair } = require('@stellar/stellar-sdk');
const { createApp } = require('../dist/app.js');
const { loadConfig } = require('../dist/config.js');
const { logger } = require('../dist/core/logger.js');
const { migrate, openDatabase } = require('../dist/db/orm.js');
const { Account } = require('../dist/modules/accounts/accounts.entity.js');
const { AccountType } = require('../dist/core/account-type.js');

const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);

function opsPerSecond(fn, ms = 1000) {
  const end = performance.now() + ms;
  let n = 0;
  while (performance.now() < end) {
    for (let i = 0; i < 100; i++) fn();
    n += 100;
  }
  return n / (ms / 1000);
}

/** Node's native ed25519 against the SDK's pure-JS path (the baseline), on the same message. */
function signatureVerification() {
  const keypair = Keypair.random();
  const message = createHash('sha256').update('(request-target): get /').digest();
  const signature = keypair.sign(message);
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: keypair.rawPublicKey().toString('base64url') }, format: 'jwk' });
  const sdk = opsPerSecond(() => keypair.verify(message, signature));
  const native = opsPerSecond(() => verify(null, message, key, signature));
  return { baseline: 'SDK Keypair.verify', sdkPerSecond: Math.round(sdk), nativePerSecond: Math.round(native), ratioToBaseline: +(native / sdk).toFixed(2) };
}

function load(url, setupRequest) {
  return new Promise((resolve, reject) => {
    const requests = setupRequest ? [{ setupRequest }] : undefined;
    autocannon({ url, connections: CONNECTIONS, duration: DURATION, requests }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

function signedGet(keypair, target) {
  return (req) => {
    const date = new Date().toISOString();
    const text = `(request-target): get ${target}\nx-date: ${date}`;
    const sig = keypair.sign(createHash('sha256').update(text).digest()).toString('base64');
    return {
      ...req,
      method: 'GET',
      path: target,
      headers: { 'x-date': date, signature: `keyId="${keypair.publicKey()}",algorithm="ed25519-sha256",headers="(request-target) x-date",signature="${sig}"` },
    };
  };
}

async function main() {
  logger.level = 'silent';
  const db = await freshDatabase('bench_http');
  const url = db.url;
  const orm = await openDatabase(url);
  await migrate(orm);
  const master = Keypair.random();
  const config = loadConfig({ DATABASE_URL: url, DATA_DIR: mkdtempSync(path.join(tmpdir(), 'bench-')), MASTER_SEED: master.secret(), LOG_LEVEL: 'silent' });
  const app = await createApp({ config, orm, master, log: logger });
  const { port } = await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${port}`;
  const user = Keypair.random();
  const em = orm.em.fork();
  em.create(Account, { id: user.publicKey(), accountType: AccountType.User });
  await em.flush();

  const results = { database: db.kind, connections: CONNECTIONS, seconds: DURATION };
  await markMemory('http', 'start');
  results.signature = signatureVerification();

  const scenarios = [
    ['GET /healthz (baseline: no database, no auth)', `${base}/healthz`],
    ['GET / ping (one query)', `${base}/`],
    ['GET /enums/makers (static list, 78 makers)', `${base}/enums/makers`],
    ['GET / signed (signature, account and blacklist lookups)', `${base}/`, signedGet(user, '/')],
  ];
  const http = {};
  let baseline = null;
  for (const [name, target, setup] of scenarios) {
    const res = await load(target, setup);
    const rps = res.requests.average;
    baseline ??= rps;
    http[name] = { requestsPerSecond: Math.round(rps), ratioToBaseline: +(rps / baseline).toFixed(3), p99ms: res.latency.p99, non2xx: res.non2xx };
  }
  results.http = http;
  await markMemory('http', 'after its requests');
  if (process.env.BENCH_LOTS !== '0') results.lots = await lotsBench();
  if (process.env.BENCH_LOT_CREATE !== '0') results.lotCreate = await lotCreateBench();
  if (process.env.BENCH_BIDS !== '0') results.bids = await bidsBench();
  if (process.env.BENCH_STATS !== '0') results.platformStats = await platformStatsBench();
  if (process.env.BENCH_FANOUT !== '0') results.fanout = await fanoutBench();
  if (process.env.BENCH_SEARCHES !== '0') results.searches = await searchesBench();
  if (process.env.BENCH_STALL !== '0') results.stall = await stallBench();
  if (process.env.BENCH_STALL_LIVE !== '0') results.stallLive = await stallLiveBench();
  await markMemory('http', 'end, after every section');
  results.memory = await memoryGoal();
  writeFileSync(process.env.BENCH_OUT, JSON.stringify(results, null, 2));

  await app.close();
  await orm.close();
  await db.drop();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
