import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort } from '../../src/db/embedded.host';

/** Whether this machine has a Redis server binary; no npm package carries one. */
export const REDIS_BINARY = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim() || null;

export interface PrivateRedis {
  url: string;
  port: number;
  /** Kills the server at once (SIGKILL), as a crash or a lost host would. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
}

/**
 * A Redis server of this test's own on a free port, without persistence: stopping it takes Redis
 * away from this test only, never from whoever else uses the machine's Redis.
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  if (!REDIS_BINARY) throw new Error('redis-server is not on PATH');
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  const start = async () => {
    child = spawn(REDIS_BINARY as string, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    const deadline = Date.now() + 10_000;
    for (;;) {
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        await probe.ping();
        return;
      } catch (err) {
        if (Date.now() > deadline) throw err;
      } finally {
        probe.disconnect();
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const kill = () =>
    new Promise<void>((resolve) => {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null) return resolve();
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  await start();
  process.once('exit', () => (child as ChildProcess | null)?.kill('SIGKILL'));
  return { url, port, kill, start };
}
