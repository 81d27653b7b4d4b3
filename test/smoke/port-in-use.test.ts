import { existsSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/db/embedded.host';
import { launch, reapAll, sleep, untilServing } from './launch';

let taken: Server | undefined;

afterEach(async () => {
  reapAll();
  await new Promise((r) => (taken ? taken.close(r) : r(undefined)));
});

describe('a start on a port that another process holds', () => {
  it('refuses before starting the database, in one line naming PORT and the address, with no stack trace', async () => {
    const holder = createServer();
    taken = holder;
    const port = await new Promise<number>((resolve) => holder.listen(0, '127.0.0.1', () => resolve((holder.address() as { port: number }).port)));
    const dataDir = mkdtempSync(path.join(tmpdir(), 'port-in-use-'));

    const started = Date.now();
    const service = launch(process.execPath, ['dist/main.js'], dataDir, port);
    const code = await service.exited;
    const took = Date.now() - started;

    expect(code).toBe(1);
    expect(service.output()).toBe(`Cannot start: PORT ${port} on 127.0.0.1 is in use by another process: stop it, or set PORT to a free port\n`);
    expect(existsSync(path.join(dataDir, 'pg'))).toBe(false);
    // A generous ceiling for a shared machine; the refusal used to wait for the database and its migrations.
    expect(took).toBeLessThan(30_000);
  }, 60_000);

  it('is not possible while the service starts: the port is held from the check, so not even its own database can take it', async () => {
    const port = await freePort();
    const service = launch(process.execPath, ['dist/main.js'], mkdtempSync(path.join(tmpdir(), 'port-held-')), port);
    // The database starts and migrates after the check: seconds in which the port used to be free.
    while (!service.output().includes('embedded PostgreSQL ready')) {
      if (service.child.exitCode !== null) throw new Error(service.output());
      await sleep(20);
    }
    const attempt = createServer();
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      attempt.once('error', resolve);
      attempt.listen(port, '127.0.0.1', () => resolve(null));
    });
    await new Promise((r) => attempt.close(r));
    expect(error?.code).toBe('EADDRINUSE');
    await untilServing(service);
  }, 120_000);
});
