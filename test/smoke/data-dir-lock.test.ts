import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/db/embedded.host';
import { allGone, launch, parentOf, postgresPid, reapAll, sleep, untilReady, untilServing } from './launch';

afterEach(reapAll);

const node = (dataDir: string, port: number) => launch(process.execPath, ['dist/main.js'], dataDir, port);

describe('two starts on one DATA_DIR', () => {
  it('the second refuses at once, in one line naming the folder and the holder, and leaves the first and its database alone', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'data-dir-lock-'));
    const first = node(dataDir, await freePort());
    await untilServing(first);
    const pg = postgresPid(dataDir);

    const started = Date.now();
    const second = node(dataDir, await freePort());
    const code = await Promise.race([second.exited, sleep(60_000).then(() => 'still running after 60 s')]);
    const took = Date.now() - started;

    expect(code).toBe(1);
    expect(second.output()).toBe(
      `Cannot start: ${dataDir} is in use by another instance of the service (PID ${first.child.pid}): stop it, or set DATA_DIR to another folder\n`,
    );
    // No database is started: the refusal costs loading the configuration (a generous ceiling for a shared machine).
    expect(took).toBeLessThan(30_000);
    expect(postgresPid(dataDir)).toBe(pg);
    await untilReady(first);
  }, 120_000);

  it('takes over from an instance that is gone, stopping the server it left running, and says so in one line', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'data-dir-lock-'));
    const port = await freePort();
    const first = node(dataDir, port);
    await untilServing(first);
    const orphan = postgresPid(dataDir) as number;
    // An out-of-memory kill of the service and of the server's keeper alike: nothing stops the server.
    const keeper = parentOf(orphan) as number;
    process.kill(keeper, 'SIGKILL');
    first.child.kill('SIGKILL');
    await first.exited;
    expect(await allGone([keeper], 5000)).not.toBeNull();
    expect(postgresPid(dataDir)).toBe(orphan);

    const second = node(dataDir, port);
    await untilServing(second);
    await untilReady(second);
    expect(postgresPid(dataDir)).not.toBe(orphan);
    const told = second.output().split('\n').filter((l) => l.includes('left running'));
    expect(told.map((l) => JSON.parse(l).msg)).toEqual([`stopping the PostgreSQL (PID ${orphan}) left running on ${path.join(dataDir, 'pg')} by a service that is gone`]);
  }, 180_000);
});
