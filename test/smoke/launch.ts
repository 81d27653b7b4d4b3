import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { Client } from 'pg';
import path from 'node:path';
import { TestClient } from '../helpers/client';
import { ROOT } from '../helpers/process';

/**
 * The service started as a user starts it (`node dist/main.js` or `npm start`, with the embedded
 * database), in a process group of its own as a shell would; every process it leads to is
 * recorded, so that `reapAll` ends them all even when a test fails.
 */
export interface Launched {
  child: ChildProcess;
  dataDir: string;
  client: TestClient;
  output(): string;
  exited: Promise<number | null>;
}

const groups = new Set<number>();
const strays = new Set<number>();

export function serviceEnv(dataDir: string, port: number, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.DATABASE_URL;
  delete env.MASTER_SEED;
  return { ...env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...extra };
}

export function launch(command: string, args: string[], dataDir: string, port: number, extra: NodeJS.ProcessEnv = {}): Launched {
  const child = spawn(command, args, { cwd: ROOT, env: serviceEnv(dataDir, port, extra), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  groups.add(child.pid as number);
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, dataDir, client: new TestClient(`http://127.0.0.1:${port}`), output: () => output, exited };
}

/** Waits until the service answers /healthz; records its PostgreSQL and that server's parent. */
export async function untilServing(service: Launched, ms = 90_000): Promise<void> {
  const deadline = Date.now() + ms;
  while ((await service.client.get('/healthz').then((r) => r.status, () => 0)) !== 200) {
    if (service.child.exitCode !== null) throw new Error(`the service exited with ${service.child.exitCode}:\n${service.output()}`);
    if (Date.now() > deadline) throw new Error(`the service did not answer within ${ms / 1000} s:\n${service.output()}`);
    await sleep(100);
  }
  const pg = postgresPid(service.dataDir);
  if (pg !== null) {
    strays.add(pg);
    const keeper = parentOf(pg);
    if (keeper !== null && keeper !== service.child.pid) strays.add(keeper);
  }
}

/**
 * Waits until the service answers /readyz with 200, as a load balancer would before sending it
 * work: its first probe opens a connection of its own within 700 ms, which a loaded machine may
 * miss once (a 503 seen in CI right after a start at load 6).
 */
export async function untilReady(service: Launched, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  let last = 0;
  while ((last = await service.client.get('/readyz').then((r) => r.status, () => 0)) !== 200) {
    if (service.child.exitCode !== null) throw new Error(`the service exited with ${service.child.exitCode}:\n${service.output()}`);
    if (Date.now() > deadline) throw new Error(`/readyz still answered ${last} after ${ms / 1000} s:\n${service.output()}`);
    await sleep(200);
  }
}

/** SIGKILL to every group and process this file started, and to its PostgreSQL servers. */
export function reapAll(): void {
  for (const group of groups) signal(-group, 'SIGKILL');
  for (const pid of strays) signal(pid, 'SIGKILL');
  groups.clear();
  strays.clear();
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // Already gone.
  }
}

/** The PID of the PostgreSQL serving `dataDir`, from its lock file, if that process still runs. */
export function postgresPid(dataDir: string): number | null {
  const lock = path.join(dataDir, 'pg', 'postmaster.pid');
  if (!existsSync(lock)) return null;
  const pid = Number(readFileSync(lock, 'utf8').split('\n')[0]);
  return alive(pid) ? pid : null;
}

/** The embedded server's connection URL, from its lock file and pgpass. */
export function postgresUrl(dataDir: string): string {
  const port = readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[3];
  const password = readFileSync(path.join(dataDir, 'pgpass'), 'utf8').trim().split(':')[4];
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
}

export async function sql<T = Record<string, unknown>>(dataDir: string, text: string, params?: unknown[]): Promise<T[]> {
  const client = new Client({ connectionString: postgresUrl(dataDir) });
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** A process's parent, from /proc. */
export function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

/** The processes of a process group, from /proc. */
export function groupMembers(pgid: number): number[] {
  return processesWith(2, pgid);
}

/** A process's children, from /proc: PostgreSQL's are each in a group of their own. */
export function childrenOf(pid: number): number[] {
  return processesWith(1, pid);
}

/** The processes whose /proc stat field `field` (counted from the state, 0) is `value`. */
function processesWith(field: number, value: number): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[field]) === value;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Whether `pid` runs (a zombie, dead but not yet reaped by its parent, does not). */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Waits until none of `pids` runs; the time it took, or null past `ms`. */
export async function allGone(pids: number[], ms: number): Promise<number | null> {
  const started = Date.now();
  while (pids.some(alive)) {
    if (Date.now() - started > ms) return null;
    await sleep(50);
  }
  return Date.now() - started;
}

/** Holds no worker open: a sleep raced against a process's exit outlives its test (jest would force the worker out). */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms).unref());

/**
 * A port taken for the whole test file: a start that got as far as binding it is refused right
 * there, after it made and locked DATA_DIR, with no database needed. Answers the port, to read in tests.
 */
export function takenPort(): () => number {
  let taken: Server;
  let port = 0;
  beforeAll(async () => {
    taken = createServer();
    port = await new Promise<number>((resolve) => taken.listen(0, '127.0.0.1', () => resolve((taken.address() as { port: number }).port)));
  });
  afterAll(() => new Promise((r) => taken.close(r)));
  return () => port;
}
