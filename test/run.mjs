// `npm test`: builds once (the command-line tests run dist/), then runs the suite against the
// PostgreSQL server at TEST_DATABASE_URL or DATABASE_URL, else against an embedded PostgreSQL
// started for this run. Every temporary file of the run lives in one folder, removed at the end.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

const require = createRequire(import.meta.url);
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

const scratch = mkdtempSync(path.join(tmpdir(), 'auction-tests-'));
// The embedded server runs as another user when this is root: it must be able to enter.
chmodSync(scratch, 0o755);
const env = { ...process.env, TMPDIR: scratch };
delete env.DATABASE_URL;

let embedded = null;
let status = 1;
try {
  const server = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (server) {
    env.TEST_DATABASE_URL = server;
  } else {
    const { startEmbeddedPostgres } = require('../dist/db/embedded.js');
    embedded = await startEmbeddedPostgres({ dir: path.join(scratch, 'embedded') });
    console.log(`No DATABASE_URL: running the suite on an embedded PostgreSQL (port ${embedded.port}).`);
    env.TEST_DATABASE_URL = embedded.url;
  }
  const report = path.join(scratch, 'report.json');
  const jest = require.resolve('jest/bin/jest');
  const result = spawnSync(process.execPath, [jest, '--json', `--outputFile=${report}`, ...process.argv.slice(2)], { stdio: 'inherit', env });
  status = result.status ?? 1;
  if (existsSync(report)) {
    const { numPassedTests, numFailedTests, numPendingTests } = JSON.parse(readFileSync(report, 'utf8'));
    // The plain closing line that CI reads, whatever the runner.
    console.log(`Tests: ${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests} skipped`);
  }
} finally {
  await embedded?.stop();
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(status);
