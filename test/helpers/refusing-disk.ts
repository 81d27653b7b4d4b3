import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Folders whose file system refuses writes, for the tests of what the service does then: real
 * refusals of the kernel, made with what this machine lets the test make, so that they run on
 * every machine (`npm test` skips nothing).
 *
 * Where the test may make a mount namespace (root, or a user allowed user namespaces), they are
 * tmpfs mounts in a namespace of its own, held by a process through whose view of them
 * (/proc/<pid>/root) the test reaches them, the machine's mounts untouched: a read-only one (EROFS)
 * and a 64 KiB one that a larger file fills (ENOSPC). Many machines let a user make none (Ubuntu
 * 24.04 by default, containers without CAP_SYS_ADMIN, no `unshare` at all): there the folder where
 * no file can be made is one without write permission (EACCES), and a full disk has no folder
 * (`full` is null): the tests link the file the service writes to /dev/full, whose every write the
 * kernel refuses with ENOSPC, as a full disk's.
 */
export interface RefusingDisk {
  /** A folder where no file can be made, and the errno the kernel refuses a new file with there. */
  readOnly: string;
  readOnlyCode: 'EROFS' | 'EACCES';
  /** A folder on a 64 KiB disk, or null where none can be mounted. */
  full: string | null;
  close(): void;
}

export async function refusingDisk(): Promise<RefusingDisk> {
  const readOnly = mkdtempSync(path.join(tmpdir(), 'refusing-ro-'));
  const full = mkdtempSync(path.join(tmpdir(), 'refusing-full-'));
  // Root makes mount namespaces without a user namespace, which a machine may forbid even to root.
  const unshare = process.getuid?.() === 0 ? ['--mount'] : ['--map-root-user', '--mount'];
  if (spawnSync('unshare', [...unshare, 'true']).status !== 0) {
    rmSync(full, { recursive: true });
    return withoutNamespace(readOnly);
  }
  const holder = spawn('unshare', [...unshare, 'sh', '-c', 'mount -t tmpfs -o ro tmpfs "$1" && mount -t tmpfs -o size=64k tmpfs "$2" && echo mounted && exec cat', 'sh', readOnly, full], { stdio: ['pipe', 'pipe', 'pipe'] });
  let said = '';
  holder.stderr?.on('data', (c: Buffer) => (said += c.toString('utf8')));
  await new Promise<void>((resolve, reject) => {
    holder.stdout?.once('data', () => resolve());
    holder.once('exit', (code) => reject(new Error(`unshare made a mount namespace but could not mount the test's file systems in it (exit ${code}): ${said}`)));
  });
  const seen = (dir: string) => `/proc/${holder.pid}/root${dir}`;
  return {
    readOnly: seen(readOnly),
    readOnlyCode: 'EROFS',
    full: seen(full),
    close() {
      holder.stdin?.end();
      holder.kill();
      rmSync(readOnly, { recursive: true, force: true });
      rmSync(full, { recursive: true, force: true });
    },
  };
}

function withoutNamespace(readOnly: string): RefusingDisk {
  chmodSync(readOnly, 0o555);
  try {
    writeFileSync(path.join(readOnly, 'probe'), '');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EACCES') {
      return {
        readOnly,
        readOnlyCode: 'EACCES',
        full: null,
        close: () => rmSync(readOnly, { recursive: true, force: true }),
      };
    }
    throw err;
  }
  // Root without CAP_SYS_ADMIN (a container's) writes past any permission and mounts nothing.
  rmSync(readOnly, { recursive: true, force: true });
  throw new Error('this machine lets the test make neither a mount namespace (unshare --mount) nor a folder it may not write: run the tests as a user other than root, or as root with CAP_SYS_ADMIN');
}
