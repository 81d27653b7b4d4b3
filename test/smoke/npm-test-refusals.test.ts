import { chmodSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exec } from '../helpers/process';

/** `npm test` as a user starts it: no database named, so on an embedded PostgreSQL of its own, in TMPDIR. */
function npmTest(tmp: string, ...args: string[]) {
  const env: NodeJS.ProcessEnv = { ...process.env, TMPDIR: tmp };
  for (const name of ['TEST_DATABASE_URL', 'DATABASE_URL', 'TEST_GROUPED', 'TEST_RUN_PID']) delete env[name];
  return exec(process.execPath, ['test/run.mjs', ...args], env);
}

const STACK = /^\s+at /m;

describe('npm test where it cannot run', () => {
  it('says in one line that TMPDIR names no folder, without a stack trace', async () => {
    const missing = path.join(mkdtempSync(path.join(tmpdir(), 'npm-test-')), 'gone', 'tmp');
    const run = await npmTest(missing);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([expect.stringContaining(`Cannot run the tests: no folder of theirs can be made in ${missing} (TMPDIR): ENOENT`)]);
    expect(run.stderr).not.toMatch(STACK);
  }, 60_000);

  // As root the embedded server runs as "postgres", which a folder of mode 700 keeps out; any other
  // user runs it as itself, and enters its own folder.
  it('as root, says in one line that the embedded PostgreSQL cannot enter TMPDIR; as another user, runs there', async () => {
    const closed = mkdtempSync(path.join(tmpdir(), 'npm-test-closed-'));
    chmodSync(closed, 0o700);
    const run = await npmTest(closed, 'test/unit/money.test.ts');
    if (process.getuid?.() === 0) {
      expect(run.code).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([
        `Cannot start the embedded PostgreSQL for the tests: it runs as user "postgres", which cannot enter ${closed}: set TMPDIR to a folder it can reach`,
      ]);
    } else {
      expect(run.stdout).toMatch(/Tests: \d+ passed, 0 failed, 0 skipped/);
      expect(run.code).toBe(0);
    }
  }, 120_000);
});
