import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exec, ROOT } from '../helpers/process';

/** A build that writes `<` as it begins and `>` as it ends, `ms` later, and its PID in `build.pid`. */
const slowBuild = (ms: number) =>
  `node -e "const fs = require('fs'); fs.writeFileSync('build.pid', String(process.pid)); fs.appendFileSync('builds', '<'); setTimeout(() => fs.appendFileSync('builds', '>'), ${ms})"`;

/**
 * scripts/build-if-stale.mjs in a project of its own whose build counts its runs, so that the
 * repository's dist/ is left alone. Its folder's name has a space and a letter outside ASCII, as
 * a user's may ("my projects", "prøject").
 */
function project(build = slowBuild(0)) {
  const dir = mkdtempSync(path.join(tmpdir(), 'build if stale ø-'));
  mkdirSync(path.join(dir, 'scripts'));
  mkdirSync(path.join(dir, 'src', 'db'), { recursive: true });
  for (const script of ['build-if-stale.mjs', 'build-lock.mjs']) copyFileSync(path.join(ROOT, 'scripts', script), path.join(dir, 'scripts', script));
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  writeFileSync(path.join(dir, '.swcrc'), '{}');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: { build } }));
  writeFileSync(path.join(dir, 'src', 'main.ts'), 'export {};\n');
  writeFileSync(path.join(dir, 'src', 'db', 'orm.ts'), 'export {};\n');
  const builds = () => (existsSync(path.join(dir, 'builds')) ? readFileSync(path.join(dir, 'builds'), 'utf8') : '');
  const script = path.join(dir, 'scripts', 'build-if-stale.mjs');
  /** The command, as `npm start` runs it before the service. */
  const command = () => exec(process.execPath, [script]);
  return {
    dir,
    builds,
    command,
    /** As a terminal starts a command: in a process group of its own. */
    spawnCommand: () => spawn(process.execPath, [script], { cwd: dir, detached: true, stdio: ['ignore', 'ignore', 'pipe'] }),
    /** Runs the command, which must succeed, and answers how many builds began. */
    async run() {
      const res = await command();
      if (res.code !== 0) throw new Error(`build-if-stale failed: ${res.stderr}`);
      return builds().replace(/>/g, '').length;
    },
  };
}

/** Waits until `test` holds, for 20 s at most. */
async function until(test: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!test() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}

const oneLine = (stderr: string) => stderr.trim().split('\n');

describe('npm start and the other commands that run dist/ build only when src/ changed, one at a time', () => {
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
    const { dir, builds, run, spawnCommand } = project(slowBuild(60_000));
    // As kill -9 to the command's process group would: the command and its build, with no chance to clean up.
    const first = spawnCommand();
    await until(() => builds() === '<');
    expect(builds()).toBe('<');
    process.kill(-(first.pid as number), 'SIGKILL');
    // The build runs in a process group of its own (so that a signal to the command reaches it): left to
    // itself it would end a minute later, as a real one ends a few seconds later.
    process.kill(Number(readFileSync(path.join(dir, 'build.pid'), 'utf8')), 'SIGKILL');
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: { build: slowBuild(0) } }));
    const started = Date.now();
    expect(await run()).toBe(2);
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 60_000);

  it('says that it waits for another command\'s build', async () => {
    const { builds, command, spawnCommand } = project(slowBuild(1500));
    const first = spawnCommand();
    const firstExit = new Promise((r) => first.once('exit', r));
    await until(() => builds() === '<');
    const second = await command();
    expect({ code: second.code, stderr: oneLine(second.stderr) }).toEqual({ code: 0, stderr: [expect.stringMatching(/^waiting for another command's build of dist\/ \(.*\.build-lock\)$/)] });
    expect(builds()).toBe('<>');
    expect(await firstExit).toBe(0);
  }, 60_000);

  it('stops its build when it alone is sent SIGTERM, and leaves no lock behind', async () => {
    const { dir, builds, run, spawnCommand } = project(slowBuild(3000));
    const first = spawnCommand();
    const exited = new Promise((r) => first.once('exit', r));
    await until(() => builds() === '<');
    process.kill(first.pid as number, 'SIGTERM');
    const code = await exited;
    expect(code).not.toBe(0);
    // Past the time the build would have ended, had it been left running.
    await new Promise((r) => setTimeout(r, 3500));
    expect(builds()).toBe('<');
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: { build: slowBuild(0) } }));
    const started = Date.now();
    expect(await run()).toBe(2);
    expect(Date.now() - started).toBeLessThan(5000);
  }, 60_000);

  it.each([
    ['a file', (lock: string) => writeFileSync(lock, 'x')],
    ['a folder with a file in it', (lock: string) => (mkdirSync(lock), writeFileSync(path.join(lock, 'x'), 'x'))],
    ['a folder dated an hour ahead', (lock: string) => (mkdirSync(lock), utimesSync(lock, new Date(Date.now() + 3_600_000), new Date(Date.now() + 3_600_000)))],
  ])('takes over %s left at the lock\'s place at once', async (_, leave) => {
    const { dir, run } = project();
    mkdirSync(path.join(dir, 'dist'));
    leave(path.join(dir, 'dist', '.build-lock'));
    const started = Date.now();
    expect(await run()).toBe(1);
    expect(Date.now() - started).toBeLessThan(5000);
  }, 60_000);

  it('tells a syntax error as swc diagnoses it, with no Rust backtrace nor JavaScript stack, and records no build', async () => {
    const { dir } = project('swc src -d dist --strip-leading-paths --quiet');
    writeFileSync(path.join(dir, 'src', 'broken.ts'), 'export const x = ;\n');
    // As on a machine whose user asked Rust programs for their backtraces.
    const res = await exec(process.execPath, [path.join(dir, 'scripts', 'build-if-stale.mjs')], { ...process.env, RUST_BACKTRACE: '1' });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Expression expected');
    expect(res.stderr).toMatch(/src\/broken\.ts:1:/);
    expect(res.stderr).not.toContain('Stack backtrace');
    expect(res.stderr.split('\n').filter((line) => /^\s+at /.test(line))).toEqual([]);
    expect(existsSync(path.join(dir, 'dist', '.build-stamp'))).toBe(false);
  });

  it('says in one line that dist is no folder it can build into', async () => {
    const { dir, builds, command } = project();
    writeFileSync(path.join(dir, 'dist'), 'x');
    const res = await command();
    expect({ code: res.code, stderr: oneLine(res.stderr), builds: builds() }).toEqual({
      code: 1,
      stderr: [`cannot build into ${path.join(dir, 'dist')} (EEXIST): remove what is there, or make it a folder this user may write`],
      builds: '',
    });
  }, 60_000);

  it('fails, records no build, and builds the next time, when dist/ is removed during its build', async () => {
    const { dir, builds, command, run } = project(slowBuild(1500));
    const running = command();
    await until(() => builds() === '<');
    rmSync(path.join(dir, 'dist'), { recursive: true, force: true });
    const res = await running;
    expect({ code: res.code, stderr: oneLine(res.stderr) }).toEqual({ code: 1, stderr: [expect.stringMatching(/\.build-lock was lost during the build \(dist\/ removed/)] });
    writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: { build: slowBuild(0) } }));
    expect(await run()).toBe(2);
  }, 60_000);
});
