import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch, reapAll } from './launch';

/**
 * An existing DATA_DIR on a read-only file system, and one on a full disk: both mounted (tmpfs)
 * in a mount namespace of the test's own (`unshare`), held by a process through whose view of
 * them (/proc/<pid>/root) the service is given its DATA_DIR; the machine's mounts stay as they are.
 */
let holder: ChildProcess;
let readOnly: string;
let full: string;

async function mountedAside(): Promise<ChildProcess> {
  const child = spawn('unshare', ['--map-root-user', '--mount', 'sh', '-c', 'mount -t tmpfs -o ro tmpfs "$1" && mount -t tmpfs -o size=64k tmpfs "$2" && echo mounted && exec cat', 'sh', readOnly, full], { stdio: ['pipe', 'pipe', 'pipe'] });
  let said = '';
  child.stderr?.on('data', (c: Buffer) => (said += c.toString('utf8')));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`unshare could not mount the test's file systems (exit ${code}): ${said}`)));
  });
  return child;
}

const seen = (dir: string) => `/proc/${holder.pid}/root${dir}`;

beforeAll(async () => {
  readOnly = mkdtempSync(path.join(tmpdir(), 'data-dir-ro-'));
  full = mkdtempSync(path.join(tmpdir(), 'data-dir-full-'));
  holder = await mountedAside();
  try {
    writeFileSync(path.join(seen(full), 'filler'), Buffer.alloc(128 * 1024));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  }
});
afterEach(() => reapAll());
afterAll(() => {
  holder?.stdin?.end();
  holder?.kill();
});

const start = async (dataDir: string) => {
  const service = launch(process.execPath, ['dist/main.js'], dataDir, 0);
  return { code: await service.exited, output: service.output() };
};

describe('a start on a DATA_DIR whose file system refuses writes', () => {
  it('is refused in one line for a read-only one, with nothing left behind', async () => {
    const dir = seen(readOnly);
    const { code, output } = await start(dir);
    expect({ code, output }).toEqual({ code: 1, output: expect.stringMatching(new RegExp(`^Cannot start: cannot write ${dir}/service\\.pid\\.\\d+ \\(EROFS\\): free space on its disk, or set DATA_DIR to a folder this user may write\\n$`)) });
    expect(readdirSync(dir)).toEqual([]);
  }, 60_000);

  it('is refused in one line on a full disk, and leaves no empty lock file behind', async () => {
    const dir = seen(full);
    const { code, output } = await start(dir);
    expect({ code, output }).toEqual({ code: 1, output: expect.stringMatching(new RegExp(`^Cannot start: cannot write ${dir}/service\\.pid\\.\\d+ \\(ENOSPC\\): free space on its disk, or set DATA_DIR to a folder this user may write\\n$`)) });
    expect(readdirSync(dir)).toEqual(['filler']);
  }, 60_000);
});
