import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/db/embedded.host';
import { allGone, groupMembers, launch, parentOf, postgresPid, reapAll, sleep, untilServing } from './launch';

afterEach(reapAll);

/**
 * A terminal's Ctrl-C signals the whole foreground process group: npm and the service both, and
 * npm passes the signal on, so the service hears it twice. A `kill` of the group (a process
 * manager, a closing session) does the same with SIGTERM.
 */
describe('npm start stopped by a signal to its process group', () => {
  it('stops the service and its PostgreSQL within 10 s, 20 times of 20, once or twice, SIGINT or SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'signals-'));
    const port = await freePort();
    const tries = [
      { signal: 'SIGINT', times: 1 },
      { signal: 'SIGTERM', times: 1 },
      { signal: 'SIGINT', times: 2 },
      { signal: 'SIGTERM', times: 2 },
    ] as const;
    const outcomes: string[] = [];
    for (let i = 0; i < 20; i++) {
      const { signal, times } = tries[i % tries.length];
      const npm = launch('npm', ['start', '--silent'], dataDir, port, { LOG_LEVEL: 'warn' });
      await untilServing(npm);
      const pg = postgresPid(dataDir) as number;
      const keeper = parentOf(pg) as number;
      const group = npm.child.pid as number;
      const members = groupMembers(group);
      for (let n = 0; n < times; n++) {
        // A second Ctrl-C as a person presses it, a moment after the first.
        if (n) await sleep(100);
        process.kill(-group, signal);
      }
      const took = await allGone([...members, pg, keeper], 10_000);
      const code = await Promise.race([npm.exited, sleep(1000).then(() => 'running')]);
      outcomes.push(`${signal}×${times}: ${took === null ? 'still running after 10 s' : 'stopped'}, npm ${code}`);
    }
    console.log(`npm start, signalled as a terminal does: ${outcomes.join('; ')}`);
    expect(outcomes.filter((o) => !o.includes('stopped'))).toEqual([]);
    expect(postgresPid(dataDir)).toBeNull();
  }, 600_000);
});

describe('the embedded PostgreSQL and a service that dies', () => {
  it('stops within 10 s when the service is killed with SIGKILL, which it cannot catch', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'signals-'));
    const service = launch(process.execPath, ['dist/main.js'], dataDir, await freePort(), { LOG_LEVEL: 'warn' });
    await untilServing(service);
    const pg = postgresPid(dataDir) as number;
    expect(pg).not.toBeNull();
    const parent = parentOf(pg) as number;
    service.child.kill('SIGKILL');
    await service.exited;
    expect(await allGone([pg, parent], 10_000)).not.toBeNull();
  }, 120_000);
});
