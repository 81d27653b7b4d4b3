import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch, reapAll, takenPort } from './launch';

/**
 * What stands at DATA_DIR/service.pid without being a lock a live instance holds. The port is
 * taken, so that a start that got past the lock is refused right after it: no database needed.
 */
const port = takenPort();
afterEach(() => reapAll());

const startIn = async (dataDir: string) => {
  const service = launch(process.execPath, ['dist/main.js'], dataDir, port());
  return { code: await service.exited, output: service.output() };
};

describe('DATA_DIR/service.pid', () => {
  it('holding only the PID of a live process that is no instance (1) is taken over: the start goes on', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lock-file-'));
    writeFileSync(path.join(dataDir, 'service.pid'), '1\n');
    const { code, output } = await startIn(dataDir);
    expect({ code, output }).toEqual({ code: 1, output: `Cannot start: PORT ${port()} on 127.0.0.1 is in use by another process: stop it, or set PORT to a free port\n` });
    expect(existsSync(path.join(dataDir, 'service.pid'))).toBe(false);
  }, 60_000);

  it('a folder is named as such, and left there', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lock-file-'));
    const lock = path.join(dataDir, 'service.pid');
    mkdirSync(lock);
    expect(await startIn(dataDir)).toEqual({ code: 1, output: `Cannot start: ${lock} is a folder, where the service keeps a lock file: remove it, or set DATA_DIR to another folder\n` });
    expect(existsSync(lock)).toBe(true);
  }, 60_000);
});
