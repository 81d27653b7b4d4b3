import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exec, ROOT } from '../helpers/process';

/**
 * scripts/build-if-stale.mjs in a project of its own whose build counts its runs, so that the
 * repository's dist/ is left alone.
 */
function project(): { dir: string; run: () => Promise<number> } {
  const dir = mkdtempSync(path.join(tmpdir(), 'build-if-stale-'));
  mkdirSync(path.join(dir, 'scripts'));
  mkdirSync(path.join(dir, 'src', 'db'), { recursive: true });
  copyFileSync(path.join(ROOT, 'scripts', 'build-if-stale.mjs'), path.join(dir, 'scripts', 'build-if-stale.mjs'));
  writeFileSync(path.join(dir, '.swcrc'), '{}');
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ scripts: { build: 'node -e "require(\'fs\').appendFileSync(\'builds\', \'x\')"' } }));
  writeFileSync(path.join(dir, 'src', 'main.ts'), 'export {};\n');
  writeFileSync(path.join(dir, 'src', 'db', 'orm.ts'), 'export {};\n');
  const builds = () => readFileSync(path.join(dir, 'builds'), 'utf8').length;
  return {
    dir,
    async run() {
      const res = await exec(process.execPath, [path.join(dir, 'scripts', 'build-if-stale.mjs')]);
      if (res.code !== 0) throw new Error(`build-if-stale failed: ${res.stderr}`);
      return builds();
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
});
