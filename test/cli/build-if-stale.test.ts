import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exec, ROOT } from '../helpers/process';

/** A build that writes `<` as it begins and `>` as it ends, `ms` later. */
const slowBuild = (ms: number) =>
  `node -e "const fs = require('fs'); fs.appendFileSync('builds', '<'); setTimeout(() => fs.appendFileSync('builds', '>'), ${ms})"`;

/**
 * scripts/build-if-stale.mjs in a project of its own whose build counts its runs, so that the
 * repository's dist/ is left alone.
 */
function project(build = slowBuild(0)): { dir: string; builds: () => string; run: () => Promise<number> } {
  const dir = mkdtempSync(path.join(tmpdir(), 'build-if-stale-'));
  mkdirSync(path.join(dir, 'scripts'));
  mkdirSync(path.join(dir, 'src', 'db'), { recursive: true });
  copyFileSync(path.join(ROOT, 'scripts', 'build-if-stale.mjs'), path.join(dir, 'scripts', 'build-if-stale.mjs'));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  writeFileSync(path.join(dir, '.swcrc'), '{}');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: { build } }));
  writeFileSync(path.join(dir, 'src', 'main.ts'), 'export {};\n');
  writeFileSync(path.join(dir, 'src', 'db', 'orm.ts'), 'export {};\n');
  const builds = () => (existsSync(path.join(dir, 'builds')) ? readFileSync(path.join(dir, 'builds'), 'utf8') : '');
  return {
    dir,
    builds,
    async run() {
      const res = await exec(process.execPath, [path.join(dir, 'scripts', 'build-if-stale.mjs')]);
      if (res.code !== 0) throw new Error(`build-if-stale failed: ${res.stderr}`);
      return builds().replace(/>/g, '').length;
    },
  };
}

describe('npm start, call, demo and verify-bids build only when src/ changed', () => {
  it('builds the first time, not again while nothing changed, and again after an edit, an addition, a deletion or a rename', async () => {
    const { dir, run } = project();
    const src = (f: string) => path.join(dir, 'src', f);
    expect(await run()).toBe(1);
    expect(await run()).toBe(1);

    writeFileSync(src('main.ts'), 'export const edited = 1;\n');
    expect(await run()).toBe(2);
    expect(await run()).toBe(2);

    writeFileSync(src('db/new.ts'), 'export {};\n');
    // An added file may carry an old time (copied, unpacked): the listing still changes.
    utimesSync(src('db/new.ts'), new Date(2000, 0, 1), new Date(2000, 0, 1));
    expect(await run()).toBe(3);

    rmSync(src('db/new.ts'));
    expect(await run()).toBe(4);

    renameSync(src('db/orm.ts'), src('db/database.ts'));
    expect(await run()).toBe(5);
    expect(await run()).toBe(5);

    // An edit of the same size that leaves an older time, as a checkout may.
    writeFileSync(src('main.ts'), 'export const edited = 2;\n');
    utimesSync(src('main.ts'), new Date(2000, 0, 1), new Date(2000, 0, 1));
    expect(await run()).toBe(6);
  }, 60_000);

  it('builds once when two commands start together on a stale build, and neither goes on before the build is whole', async () => {
    const { builds, run } = project(slowBuild(1500));
    // What each command found when it went on (npm start: node dist/main.js), read the moment it exited.
    const seen = await Promise.all([run().then(() => builds()), run().then(() => builds())]);
    expect(seen).toEqual(['<>', '<>']);
  }, 60_000);

  it('builds after a command killed during its build, without waiting for ever on what it left', async () => {
    const { dir, builds, run } = project(slowBuild(60_000));
    // As kill -9 to the command's process group would: the command and its build, with no chance to clean up.
    const first = spawn(process.execPath, [path.join(dir, 'scripts', 'build-if-stale.mjs')], { cwd: dir, detached: true, stdio: 'ignore' });
    const deadline = Date.now() + 20_000;
    while (builds() !== '<' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(builds()).toBe('<');
    process.kill(-(first.pid as number), 'SIGKILL');
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: { build: slowBuild(0) } }));
    const started = Date.now();
    expect(await run()).toBe(2);
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 60_000);
});
