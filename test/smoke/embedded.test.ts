import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { TestClient } from '../helpers/client';

const root = path.resolve(__dirname, '..', '..');

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

async function startService(dataDir: string, port: number): Promise<ChildProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  delete env.MASTER_SEED;
  const child = spawn(process.execPath, ['dist/main.js'], { cwd: root, env, stdio: ['ignore', 'ignore', 'pipe'] });
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
});
