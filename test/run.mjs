// `npm test`: the suite against the real PostgreSQL at DATABASE_URL, or, when none answers there,
// against the embedded PostgreSQL (CI always uses the real server).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);
const { Client } = require('pg');

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const env = { ...process.env };
delete env.DATABASE_URL;

async function answers(connectionString) {
  const client = new Client({ connectionString, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

if (await answers(url)) {
  env.TEST_DATABASE_URL = url;
} else if (process.env.CI) {
  console.error(`No PostgreSQL answers at ${url.replace(/:[^:@/]*@/, ':***@')}; CI needs the real server.`);
  process.exit(1);
} else {
  console.log(`No PostgreSQL answers at ${url.replace(/:[^:@/]*@/, ':***@')}: running the suite on the embedded PostgreSQL.`);
  env.TEST_DATABASE_URL = 'embedded';
}

const jest = require.resolve('jest/bin/jest');
const report = path.join(mkdtempSync(path.join(tmpdir(), 'jest-report-')), 'report.json');
// PGlite loads its WebAssembly through a dynamic import, which jest's module sandbox allows only with this flag.
const nodeFlags = env.TEST_DATABASE_URL === 'embedded' ? ['--experimental-vm-modules', '--no-warnings=ExperimentalWarning'] : [];
const result = spawnSync(process.execPath, [...nodeFlags, jest, '--json', `--outputFile=${report}`, ...process.argv.slice(2)], { stdio: 'inherit', env });
if (existsSync(report)) {
  const { numPassedTests, numFailedTests, numPendingTests } = JSON.parse(readFileSync(report, 'utf8'));
  // The plain closing line that CI reads, whatever the runner.
  console.log(`Tests: ${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests} skipped`);
}
process.exit(result.status ?? 1);
