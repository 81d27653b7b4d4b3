import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/db/embedded.host';
import { allGone, childrenOf, launch, parentOf, postgresPid, reapAll, sleep, untilServing, type Launched } from './launch';

/**
 * A stop while the embedded PostgreSQL hangs (SIGSTOP here; a hung disk alike): neither its fast
 * nor its immediate shutdown can act, and the service waited on it for ever. The second case
 * starts on the data directory the first left crashed.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'stop-hung-'));
const frozen = new Set<number>();

afterEach(() => {
  reapAll();
  // Stopped processes nothing else would end, whatever the outcome.
  for (const pid of frozen) signal(pid, 'SIGKILL');
  frozen.clear();
});

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already.
  }
}

/** Starts the service, stops every process of its server (the postmaster first: it forks no more) and signals its group. */
async function hungThenSignalled(service: Launched): Promise<number[]> {
  await untilServing(service);
  const postmaster = postgresPid(dataDir) as number;
  const keeper = parentOf(postmaster) as number;
  signal(postmaster, 'SIGSTOP');
  const server = [postmaster, ...childrenOf(postmaster)];
  for (const pid of server) {
    frozen.add(pid);
    signal(pid, 'SIGSTOP');
  }
  process.kill(-(service.child.pid as number), 'SIGINT');
  return [service.child.pid as number, keeper, ...server];
}

const node = async (extra: NodeJS.ProcessEnv = {}) => launch(process.execPath, ['dist/main.js'], dataDir, await freePort(), extra);

describe('a stop while the embedded PostgreSQL hangs', () => {
  it('ends within JOBS_STOP_SECONDS + 10 s, exit code 1, the server killed: none of its processes is left', async () => {
    const service = await node({ JOBS_STOP_SECONDS: '1' });
    const all = await hungThenSignalled(service);
    expect(await allGone(all, 20_000)).not.toBeNull();
    expect(await service.exited).toBe(1);
    expect(service.output()).toContain('"msg":"stopping now (the stop took longer than 11 s): requests and jobs still running are abandoned, and the embedded PostgreSQL is killed');
  }, 120_000);

  it('a second Ctrl-C a second later ends it at once; the start before it recovered the server, and said so in one line', async () => {
    const service = await node();
    const all = await hungThenSignalled(service);
    await sleep(1100);
    process.kill(-(service.child.pid as number), 'SIGINT');
    expect(await allGone(all, 10_000)).not.toBeNull();
    expect(await service.exited).toBe(1);
    const recovered = service.output().split('\n').filter((l) => l.includes('recovered'));
    expect(recovered.map((l) => JSON.parse(l).msg)).toEqual([
      `the embedded PostgreSQL of ${path.join(dataDir, 'pg')} had not been shut down cleanly, and recovered from its write-ahead log: nothing committed was lost`,
    ]);
  }, 120_000);
});
