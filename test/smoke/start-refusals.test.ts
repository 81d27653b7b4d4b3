import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch, reapAll } from './launch';

/**
 * A DATA_DIR or a master seed the service cannot use ends the start at once, in one line that
 * says what to do, with no stack trace and before any database is started.
 */
afterEach(() => reapAll());

const start = async (dataDir: string) => {
  const started = Date.now();
  const service = launch(process.execPath, ['dist/main.js'], dataDir, 0);
  const code = await service.exited;
  return { code, output: service.output(), took: Date.now() - started };
};

describe('a start refused for its DATA_DIR or its master seed', () => {
  it('names a DATA_DIR that is a file', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'refusal-')), 'not-a-folder');
    writeFileSync(file, 'x');
    const { code, output } = await start(file);
    expect({ code, output }).toEqual({ code: 1, output: `Cannot start: DATA_DIR ${file} is a file, not a folder: set DATA_DIR to a folder\n` });
  }, 60_000);

  it('names a DATA_DIR that cannot be made, at once (Node’s own recursive mkdir spins for ever under /proc)', async () => {
    const { code, output, took } = await start('/proc/nope/data');
    expect({ code, output }).toEqual({ code: 1, output: 'Cannot start: DATA_DIR: cannot create /proc/nope (ENOENT): set DATA_DIR to a folder this user may write\n' });
    expect(took).toBeLessThan(30_000);
  }, 60_000);

  it('keeps a master.seed that holds no seed, and says how to restore it', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'refusal-'));
    const seed = path.join(dataDir, 'master.seed');
    writeFileSync(seed, 'not a seed\n');
    const { code, output } = await start(dataDir);
    expect({ code, output }).toEqual({ code: 1, output: `Cannot start: ${seed} holds no secret seed (S…, 56 characters): restore it from a backup of DATA_DIR, or set MASTER_SEED\n` });
    expect(readFileSync(seed, 'utf8')).toBe('not a seed\n');
  }, 60_000);
});
