import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/db/embedded.host';
import { ROOT } from '../helpers/process';
import { allGone, groupMembers, launch, parentOf, postgresPid, reapAll, sleep, untilServing } from './launch';
import { note } from '../helpers/notes';

afterEach(reapAll);

/**
 * A terminal's Ctrl-C signals the whole foreground process group: npm and the service both, and
 * npm passes the signal on, so the service hears it twice. A `kill` of the group (a process
 * manager, a closing session) does the same with SIGTERM.
 */
describe('npm start stopped by a signal to its process group', () => {
  it('stops the service and its PostgreSQL within 10 s, 20 times of 20, once or twice, SIGINT or SIGTERM', async () => {
    // `npm start` builds first when src/ changed since its last build: once here, so that no try
    // pays for a build and no two lanes build dist/ at once.
    expect(spawnSync(process.execPath, ['scripts/build-if-stale.mjs'], { cwd: ROOT, stdio: 'inherit' }).status).toBe(0);
    const tries = [
      { signal: 'SIGINT', times: 1 },
      { signal: 'SIGTERM', times: 1 },
      { signal: 'SIGINT', times: 2 },
      { signal: 'SIGTERM', times: 2 },
    ] as const;
    // The tries in lanes, each with a data directory (one initdb) and a port of its own: a try
    // mostly waits on a start and a stop, and the lanes' waits overlap.
    const LANES = 3;
    const TRIES = 20;
    const outcomes: string[] = [];
    const dataDirs: string[] = [];
    const lane = async (first: number) => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'signals-'));
      dataDirs.push(dataDir);
      const port = await freePort();
      for (let i = first; i < TRIES; i += LANES) {
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
          try {
            process.kill(-group, signal);
          } catch (err) {
            // On a quiet machine the group may be gone before the second press: nothing left to signal.
            if (!n || (err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
          }
        }
        const took = await allGone([...members, pg, keeper], 10_000);
        const code = await Promise.race([npm.exited, sleep(1000).then(() => 'running')]);
        outcomes.push(`${signal}×${times}: ${took === null ? 'still running after 10 s' : 'stopped'}, npm ${code}`);
      }
    };
    await Promise.all(Array.from({ length: LANES }, (_, l) => lane(l)));
    note(`npm start, signalled as a terminal does: ${outcomes.join('; ')}`);
    expect(outcomes).toHaveLength(TRIES);
    expect(outcomes.filter((o) => !o.includes('stopped'))).toEqual([]);
    expect(dataDirs.map(postgresPid)).toEqual(dataDirs.map(() => null));
  }, 600_000);
});

describe('npm start when its terminal closes', () => {
  // A closed terminal (or an ended ssh session) sends SIGHUP to the group: by default it ended the
  // service at once, its requests in flight unanswered and its pool unclosed.
  it('shuts down as on Ctrl-C: the service says so, and it and its PostgreSQL are gone within 10 s', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'signals-'));
    const npm = launch('npm', ['start', '--silent'], dataDir, await freePort(), { LOG_LEVEL: 'info' });
    await untilServing(npm);
    const pg = postgresPid(dataDir) as number;
    const members = groupMembers(npm.child.pid as number);
    process.kill(-(npm.child.pid as number), 'SIGHUP');
    expect(await allGone([...members, pg, parentOf(pg) as number], 10_000)).not.toBeNull();
    expect(npm.output()).toMatch(/"signal":"SIGHUP","msg":"shutting down"/);
  }, 120_000);
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
