import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch, reapAll, takenPort } from './launch';

/**
 * A DATA_DIR the start makes holds keys and a database: made inside a clone (`DATA_DIR=data`),
 * it must not show in `git status`, where a user could commit the master seed by mistake.
 */
const port = takenPort();
afterEach(() => reapAll());

const startIn = async (dataDir: string) => {
  const service = launch(process.execPath, ['dist/main.js'], dataDir, port());
  expect(await service.exited).toBe(1);
  expect(service.output()).toMatch(/^Cannot start: PORT \d+ on 127\.0\.0\.1 is in use/);
};
const gitStatus = (repo: string) => execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: repo, encoding: 'utf8' });

describe('a DATA_DIR the start makes inside a git work tree', () => {
  it('stays out of git status, with the parents the start made for it', async () => {
    const repo = mkdtempSync(path.join(tmpdir(), 'clone-'));
    execFileSync('git', ['init', '-q', repo]);
    const dataDir = path.join(repo, 'data', 'service');
    await startIn(dataDir);
    expect(existsSync(path.join(dataDir, 'service.pid'))).toBe(false);
    expect(existsSync(path.join(dataDir, '.gitignore'))).toBe(true);
    expect(existsSync(path.join(repo, 'data', '.gitignore'))).toBe(false);
    // What a start that went on would keep there: the master seed, the database.
    writeFileSync(path.join(dataDir, 'master.seed'), 'S…\n');
    mkdirSync(path.join(dataDir, 'pg'));
    writeFileSync(path.join(dataDir, 'pg', 'PG_VERSION'), '16\n');
    expect(gitStatus(repo)).toBe('');
  }, 60_000);

  it('is left as it is when it was there before: a folder the user chose gets no file of the service’s', async () => {
    const repo = mkdtempSync(path.join(tmpdir(), 'clone-'));
    execFileSync('git', ['init', '-q', repo]);
    mkdirSync(path.join(repo, 'data'));
    await startIn(path.join(repo, 'data'));
    expect(existsSync(path.join(repo, 'data', '.gitignore'))).toBe(false);
  }, 60_000);
});
