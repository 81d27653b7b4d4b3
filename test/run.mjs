// `npm test`: builds once (the command-line tests run dist/), then runs the suite against the
// PostgreSQL server at TEST_DATABASE_URL or DATABASE_URL, else against an embedded PostgreSQL
// started for this run. Every temporary file of the run lives in one folder, removed at the end.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

async function withClient(url, fn) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

// Through the script `npm start` and the commands use, which records the build: built without its
// record, dist/ was built again by the first `npm start` or `npm run …` of the suite, while the other
// worker's processes were loading it (CI, 29 November: a command died loading a half-written module).
const build = spawnSync(process.execPath, [path.join(root, 'scripts/build-if-stale.mjs')], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

let scratch;
try {
  scratch = mkdtempSync(path.join(tmpdir(), 'auction-tests-'));
} catch (err) {
  // A TMPDIR that names no folder (left in a shell's profile, say).
  console.error(`Cannot run the tests: no folder of theirs can be made in ${tmpdir()} (TMPDIR): ${err.message}`);
  process.exit(1);
}
// The embedded server runs as another user when this is root: it must be able to enter.
chmodSync(scratch, 0o755);
const env = { ...process.env, TMPDIR: scratch };
delete env.DATABASE_URL;

/** Why the run cannot begin, in one line as `npm start` says it: not a stack trace. */
class Refused extends Error {}

let embedded = null;
let status = 1;
try {
  const server = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (server) {
    env.TEST_DATABASE_URL = server;
  } else {
    const { EmbeddedPostgresError, startEmbeddedPostgres } = require('../dist/db/embedded.js');
    embedded = await startEmbeddedPostgres({ dir: path.join(scratch, 'embedded'), dirSetting: 'TMPDIR' }).catch((err) => {
      // As root from a folder its user cannot enter, say.
      throw err instanceof EmbeddedPostgresError ? new Refused(`Cannot start the embedded PostgreSQL for the tests: ${err.message}`) : err;
    });
    // This server's files are thrown away at the end of the run: nothing needs to reach the disk.
    // Without a flush per commit, CREATE DATABASE and DROP DATABASE (a checkpoint each) take
    // tens of milliseconds instead of a second or two on a busy machine.
    await withClient(embedded.url, async (c) => {
      for (const setting of ['fsync', 'synchronous_commit', 'full_page_writes']) await c.query(`alter system set ${setting} = off`);
      await c.query('select pg_reload_conf()');
    });
    console.log(`No DATABASE_URL: running the suite on an embedded PostgreSQL (port ${embedded.port}).`);
    env.TEST_DATABASE_URL = embedded.url;
  }
  // The fan-out across instances needs a Redis server: REDIS_URL's, or one of its own when this
  // machine has redis-server (no npm package carries one). Without either it cannot run, and says so.
  const redis = process.env.REDIS_URL || spawnSync('sh', ['-c', 'command -v redis-server']).status === 0;
  const withoutRedis = redis ? [] : ['--testPathIgnorePatterns=/node_modules/', '--testPathIgnorePatterns=/test/live/redis\\.test\\.ts$'];
  // A group leaves it out too (test/grouping.js): jest's pattern sees the group's file only.
  if (!redis) env.TEST_LEAVE_OUT = 'live/redis.test.ts';
  if (!redis) console.log('No REDIS_URL and no redis-server on PATH: test/live/redis.test.ts (fan-out across instances through Redis) is not run.');
  const report = path.join(scratch, 'report.json');
  // What the hardening, fault and concurrency runs tried (test/helpers/notes.ts): CI's log keeps it.
  const notes = path.join(scratch, 'notes.txt');
  env.TEST_NOTES_FILE = notes;
  // Each grouped file's time (test/grouping.js): jest's report times the groups.
  const times = path.join(scratch, 'times.jsonl');
  env.TEST_TIMES_FILE = times;
  // The whole suite (no paths named, only options): the files run in groups that load the service once each (test/grouping.js).
  if (process.argv.slice(2).every((arg) => arg.startsWith('-'))) env.TEST_GROUPED = '1';
  const jest = require.resolve('jest/bin/jest');
  // Not spawnSync: this process must keep reading the embedded server's output while jest runs,
  // or the pipe fills and every PostgreSQL process blocks on its next log line. With --json, jest
  // writes the report on its stdout (and the rest on stderr): straight into the file, where
  // --outputFile would add a line saying where it went.
  const reportFd = openSync(report, 'w');
  const jestRun = spawn(process.execPath, [jest, '--json', ...process.argv.slice(2), ...withoutRedis], { stdio: ['inherit', reportFd, 'inherit'], env });
  closeSync(reportFd);
  status = await new Promise((resolve) => jestRun.once('exit', (code) => resolve(code ?? 1)));
  if (process.env.CI && existsSync(notes)) console.log(`\nWhat the hardening, fault and concurrency tests tried:\n\n${readFileSync(notes, 'utf8').trimEnd()}`);
  // Its last line: with one test file (verbose), jest may print more on its stdout.
  const summary = readFileSync(report, 'utf8').trim().split('\n').at(-1);
  if (summary?.startsWith('{')) {
    const { numPassedTests, numFailedTests, numPendingTests, testResults } = JSON.parse(summary);
    // Where the run's time went: the files that took longest, each from its start to its end in its worker.
    const alone = testResults.map((r) => ({ file: path.relative(root, r.name), seconds: (r.endTime - r.startTime) / 1000 })).filter((r) => !r.file.startsWith('test/groups/'));
    const grouped = existsSync(times) ? readFileSync(times, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line)) : [];
    const slowest = [...alone, ...grouped].sort((a, b) => b.seconds - a.seconds).slice(0, 10);
    if (slowest.length > 1) console.log(`Slowest files:\n${slowest.map((s) => `  ${s.seconds.toFixed(1).padStart(6)} s  ${s.file}`).join('\n')}`);
    // The plain closing line that CI reads, whatever the runner.
    console.log(`Tests: ${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests} skipped`);
  }
} catch (err) {
  if (!(err instanceof Refused)) throw err;
  console.error(err.message);
} finally {
  await embedded?.stop();
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(status);
