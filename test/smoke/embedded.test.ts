import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { freePort } from '../../src/db/embedded.host';
import { TestClient } from '../helpers/client';
import { parentOf } from './launch';

const root = path.resolve(__dirname, '..', '..');

interface Service extends ChildProcess {
  /** What the service printed so far, standard output and error. */
  output(): string;
}

function spawnService(dataDir: string, port: number, extra: NodeJS.ProcessEnv = {}): Service {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...extra };
  delete env.DATABASE_URL;
  delete env.MASTER_SEED;
  const child = spawn(process.execPath, ['dist/main.js'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] }) as Service;
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString('utf8')));
  child.output = () => output;
  return child;
}

async function startService(dataDir: string, port: number): Promise<Service> {
  const child = spawnService(dataDir, port);
  const client = new TestClient(`http://127.0.0.1:${port}`);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}`);
    try {
      if ((await client.get('/')).status === 200) return child;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error('service did not answer within 60 s');
}

const exitOf = (child: ChildProcess): Promise<number | null> => new Promise((resolve) => child.once('exit', (code) => resolve(code)));

/** The PID of a PostgreSQL serving `dataDir`, from its lock file, if that process still runs. */
function postgresPid(dataDir: string): number | null {
  const lock = path.join(dataDir, 'pg', 'postmaster.pid');
  if (!existsSync(lock)) return null;
  const pid = Number(readFileSync(lock, 'utf8').split('\n')[0]);
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}

function stopService(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.kill('SIGTERM');
  });
}

describe('the embedded default (npm start with no DATABASE_URL)', () => {
  it('serves ping, shuts down on SIGTERM, and keeps the master key and the data across a restart', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'auction-smoke-'));
    const port = await freePort();
    const client = new TestClient(`http://127.0.0.1:${port}`);
    const signer = Keypair.random();

    const first = await startService(dataDir, port);
    const ping = await client.get('/');
    const master = ping.body.meta.master_account_id as string;
    expect(master).toMatch(/^G[A-Z2-7]{55}$/);
    expect(statSync(path.join(dataDir, 'master.seed')).mode & 0o777).toBe(0o600);
    expect((await client.post('/master/signers', { data: { type: 'signers', id: signer.publicKey() } })).status).toBe(204);
    expect(await stopService(first)).toBe(0);

    const second = await startService(dataDir, port);
    try {
      expect((await client.get('/')).body.meta.master_account_id).toBe(master);
      const me = await client.graphql('{ me { id accountType } }', undefined, {
        headers: { 'x-account-id': master },
        sign: { keypair: signer, headers: ['(request-target)', 'x-date', 'digest', 'x-account-id'] },
      });
      expect(me.body.data.me).toEqual({ id: master, accountType: 1 });
    } finally {
      expect(await stopService(second)).toBe(0);
    }
  }, 180_000);

  it('logs where the data is and how to connect with psql, never the password, and stops its PostgreSQL with it', async () => {
    // A folder's name as a user's may be: a space and a letter outside ASCII, which the psql line quotes.
    const dataDir = mkdtempSync(path.join(tmpdir(), 'auction smoke ø-'));
    const service = await startService(dataDir, await freePort());
    const pid = postgresPid(dataDir);
    expect(pid).not.toBeNull();
    expect(await stopService(service)).toBe(0);
    const password = readFileSync(path.join(dataDir, 'pgpass'), 'utf8').trim().split(':')[4];
    expect(password.length).toBeGreaterThanOrEqual(24);
    const ready = service.output().split('\n').find((l) => l.includes('embedded PostgreSQL ready'));
    const logged = JSON.parse(ready as string);
    expect(logged).toMatchObject({ dataDir: path.join(dataDir, 'pg'), psql: expect.stringMatching(/ psql -h 127\.0\.0\.1 -p \d+ -U postgres postgres$/) });
    // Pasted into a shell, the line gives psql the password file.
    const [assignment] = logged.psql.split(' psql ');
    expect(spawnSync('sh', ['-c', `${assignment} printenv PGPASSFILE`], { encoding: 'utf8' }).stdout).toBe(`${path.join(dataDir, 'pgpass')}\n`);
    expect(service.output()).not.toContain(password);
    expect(postgresPid(dataDir)).toBeNull();
  }, 120_000);

  it('starts again after a crash (SIGKILL of the service and of its PostgreSQL\'s keeper) left its PostgreSQL running, with the data kept', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'auction-smoke-'));
    const port = await freePort();
    const client = new TestClient(`http://127.0.0.1:${port}`);
    const first = await startService(dataDir, port);
    const master = (await client.get('/')).body.meta.master_account_id;
    const orphan = postgresPid(dataDir) as number;
    // The keeper would stop the server once the service is gone; an out-of-memory kill may take both.
    process.kill(parentOf(orphan) as number, 'SIGKILL');
    first.kill('SIGKILL');
    await exitOf(first);
    expect(postgresPid(dataDir)).toBe(orphan);

    const second = await startService(dataDir, port);
    try {
      expect((await client.get('/')).body.meta.master_account_id).toBe(master);
      expect(postgresPid(dataDir)).not.toBe(orphan);
    } finally {
      expect(await stopService(second)).toBe(0);
    }
  }, 180_000);

  it('starts over a postmaster.pid whose PID now belongs to another process, as after a crash and a reboot', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'auction-smoke-'));
    const port = await freePort();
    expect(await stopService(await startService(dataDir, port))).toBe(0);
    // An unrelated process of the server's own user took the PID: PostgreSQL alone takes it for a running server.
    const asServerUser = process.getuid?.() === 0 ? { uid: Number(execFileSync('id', ['-u', 'postgres']).toString()), gid: Number(execFileSync('id', ['-g', 'postgres']).toString()) } : {};
    const other = spawn('sleep', ['120'], { ...asServerUser, stdio: 'ignore' });
    writeFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), `${other.pid}\n${path.join(dataDir, 'pg')}\n`);
    try {
      const again = await startService(dataDir, port);
      expect((await new TestClient(`http://127.0.0.1:${port}`).get('/')).status).toBe(200);
      expect(postgresPid(dataDir)).not.toBe(other.pid);
      expect(other.exitCode).toBeNull();
      expect(await stopService(again)).toBe(0);
    } finally {
      other.kill();
    }
  }, 120_000);

  it('answers a bad LOG_LEVEL with the configuration error, as every other variable, and no stack trace', async () => {
    const service = spawnService(mkdtempSync(path.join(tmpdir(), 'auction-smoke-')), await freePort(), { LOG_LEVEL: 'loud' });
    expect(await exitOf(service)).toBe(1);
    expect(service.output()).toMatch(/^Invalid configuration:\n {2}LOG_LEVEL: /);
    expect(service.output()).not.toMatch(/\n\s+at /);
  });

  it('npm start hands its signal to the service: killing npm stops the service and its PostgreSQL', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'auction-smoke-'));
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
    delete env.DATABASE_URL;
    const npm = spawn('npm', ['start', '--silent'], { cwd: root, env, stdio: 'ignore' });
    const client = new TestClient(`http://127.0.0.1:${port}`);
    const deadline = Date.now() + 60_000;
    while ((await client.get('/').then((r) => r.status, () => 0)) !== 200) {
      if (Date.now() > deadline || npm.exitCode !== null) throw new Error('npm start did not serve within 60 s');
      await new Promise((r) => setTimeout(r, 200));
    }
    npm.kill('SIGTERM');
    await exitOf(npm);
    const gone = Date.now() + 10_000;
    while ((await client.get('/').then(() => true, () => false)) && Date.now() < gone) await new Promise((r) => setTimeout(r, 100));
    expect(await client.get('/').then(() => 'serving', () => 'stopped')).toBe('stopped');
    expect(postgresPid(dataDir)).toBeNull();
  }, 120_000);
});
