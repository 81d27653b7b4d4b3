import { linkSync, mkdirSync, readFileSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { writeNewFile } from './data-file';
import { StartRefusal } from './start-refusal';
import path from 'node:path';

/** Another live instance holds the data directory. */
export class InstanceLockError extends StartRefusal {}

/** DATA_DIR is not a folder the service can make or use. */
export class DataDirError extends StartRefusal {}

/**
 * Makes `dir` and its missing parents, or throws DataDirError saying why it cannot. A folder it
 * makes gets a `.gitignore` that ignores all of it: a DATA_DIR inside a clone (`DATA_DIR=data`)
 * holds keys and a database, and stays out of `git status` as `.data/` does.
 */
export function ensureDataDir(dir: string): void {
  const folder = path.resolve(dir);
  if (makeFolder(folder)) writeNewFile(path.join(folder, '.gitignore'), '# Made by the auction service: nothing in its DATA_DIR belongs in git.\n*\n');
  if (!statSync(folder).isDirectory()) throw new DataDirError(`DATA_DIR ${folder} is a file, not a folder: set DATA_DIR to a folder`);
}

/**
 * Makes `folder` and its missing parents; answers whether it made `folder`. Not `mkdirSync(…,
 * {recursive: true})`: under a parent that refuses new entries without saying EACCES
 * (`/proc/nope`), Node's retries it for ever at full speed.
 */
function makeFolder(folder: string, parentMade = false): boolean {
  try {
    mkdirSync(folder);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && !parentMade && path.dirname(folder) !== folder) {
      makeFolder(path.dirname(folder));
      return makeFolder(folder, true);
    }
    if (code !== 'EEXIST') throw new DataDirError(`DATA_DIR: cannot create ${folder} (${code ?? (err as Error).message}): set DATA_DIR to a folder this user may write`);
    return false;
  }
}

/**
 * Takes `<dir>/service.pid` for this process, or throws InstanceLockError naming the live
 * process that holds it. The lock goes with this process's exit; one killed with SIGKILL leaves
 * a file that the next start finds stale.
 */
export function holdDataDir(dir: string): void {
  holdLock(dir, 'service.pid', (holder) => `${path.resolve(dir)} is in use by another instance of the service (PID ${holder}): stop it, or set DATA_DIR to another folder`);
}

/**
 * Takes `<dir>/<name>` for this process, or throws InstanceLockError with `inUse` of the live
 * process that holds it. A file left by a process that is gone is taken over.
 */
export function holdLock(dir: string, name: string, inUse: (holder: number) => string): void {
  ensureDataDir(dir);
  const file = path.join(dir, name);
  const mine = `${process.pid}\n${startTime(process.pid)}\n`;
  const draft = `${file}.${process.pid}`;
  writeNewFile(draft, mine);
  try {
    // A link is created whole or not at all: two processes starting together cannot both hold it.
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        linkSync(draft, file);
        process.once('exit', () => release(file, mine));
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
      const held = lockContent(file);
      if (held === null) continue;
      if (alive(held)) throw new InstanceLockError(inUse(Number.parseInt(held, 10)));
      discardStale(file, held);
    }
    throw new InstanceLockError(`${path.resolve(dir)}: could not take ${name}, which keeps changing`);
  } finally {
    unlinkSync(draft);
  }
}

/**
 * Moves the file aside before deleting it, and puts it back if it is no longer the stale one
 * read: an instance that took it over meanwhile keeps its lock.
 */
function discardStale(file: string, stale: string): void {
  const aside = `${file}.stale.${process.pid}`;
  try {
    renameSync(file, aside);
  } catch {
    return;
  }
  if (read(aside) !== stale) {
    try {
      linkSync(aside, file);
    } catch {
      // Yet another instance holds it now; it is the holder.
    }
  }
  unlinkSync(aside);
}

function release(file: string, mine: string): void {
  if (read(file) === mine) unlinkSync(file);
}

/** A lock's content; null when it vanished meanwhile. Anything else that is no lock file is named: it is no stale lock to take over. */
function lockContent(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return null;
    throw new InstanceLockError(`${file} ${code === 'EISDIR' ? 'is a folder' : `cannot be read (${code})`}, where the service keeps a lock file: remove it, or set DATA_DIR to another folder`);
  }
}

function read(file: string): string | null {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
}

/**
 * Whether the PID of a lock's content runs, and is the process that wrote it: a PID is reused after
 * a reboot. A lock written here carries its writer's start time wherever /proc gives one, so one
 * without names a process that never held it (a PID written by hand); where /proc gives none, the
 * PID running is all there is to go by.
 */
function alive(held: string): boolean {
  const [pidText, started = ''] = held.split('\n');
  const pid = Number.parseInt(pidText, 10);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = startTime(pid);
  return now === '' || started === now;
}

/** A process's start time (Linux's /proc, in clock ticks since boot); empty where unknown. */
export function startTime(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces), from the state (field 3) on; the start time is field 22.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}
