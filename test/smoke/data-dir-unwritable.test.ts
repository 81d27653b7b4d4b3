import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { refusingDisk, type RefusingDisk } from '../helpers/refusing-disk';
import { launch, reapAll } from './launch';

/**
 * An existing DATA_DIR where no file can be made (a read-only file system, or no permission), and
 * one on a full disk: real refusals of the kernel, made as this machine allows (test/helpers/refusing-disk.ts).
 */
let disk: RefusingDisk;
let full: string;

beforeAll(async () => {
  disk = await refusingDisk();
  full = disk.full ?? mkdtempSync(path.join(tmpdir(), 'data-dir-full-'));
  if (!disk.full) return;
  try {
    writeFileSync(path.join(full, 'filler'), Buffer.alloc(128 * 1024));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  }
});
afterEach(() => reapAll());
afterAll(() => disk?.close());

const start = async (dataDir: string) => {
  const service = launch(process.execPath, ['dist/main.js'], dataDir, 0);
  return { code: await service.exited, output: service.output() };
};

/**
 * Without a full tmpfs, the lock's draft (service.pid.<the service's PID>) is linked to /dev/full
 * before the service starts: by the shell that then becomes the service (exec keeps its PID).
 */
const startOnFullDisk = async (dataDir: string) => {
  if (disk.full) return start(dataDir);
  const service = launch('sh', ['-c', 'ln -s /dev/full "$DATA_DIR/service.pid.$$" && exec "$0" dist/main.js', process.execPath], dataDir, 0);
  return { code: await service.exited, output: service.output() };
};

const refused = (dir: string, code: string) =>
  expect.stringMatching(new RegExp(`^Cannot start: cannot write ${dir}/service\\.pid\\.\\d+ \\(${code}\\): free space on its disk, or set DATA_DIR to a folder this user may write\\n$`));

describe('a start on a DATA_DIR whose file system refuses writes', () => {
  it('is refused in one line where no file can be made (read-only, or not this user\'s to write), with nothing left behind', async () => {
    const { code, output } = await start(disk.readOnly);
    expect({ code, output }).toEqual({ code: 1, output: refused(disk.readOnly, disk.readOnlyCode) });
    expect(readdirSync(disk.readOnly)).toEqual([]);
  }, 60_000);

  it('is refused in one line on a full disk, and leaves no empty lock file behind', async () => {
    const { code, output } = await startOnFullDisk(full);
    expect({ code, output }).toEqual({ code: 1, output: refused(full, 'ENOSPC') });
    expect(readdirSync(full).filter((name) => name.startsWith('service.pid'))).toEqual([]);
  }, 60_000);
});
