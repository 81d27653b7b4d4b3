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

/** The port was taken by another server between the check that found it free and the start. */
class PortTaken extends Error {}

/**
 * A Redis server of this test's own on a free port, without persistence: stopping it takes Redis
 * away from this test only, never from whoever else uses the machine's Redis. A port found free can
 * be taken by another test's server before this one binds it: the server that answers must be this
 * one's process, or a test would kill, or be cut off by, another file's Redis.
 */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  if (!REDIS_BINARY) throw new Error('redis-server is not on PATH');
  for (let attempt = 1; ; attempt++) {
    const server = privateRedis(await freePort());
    try {
      await server.start();
      return server;
    } catch (err) {
      if (!(err instanceof PortTaken) || attempt === 5) throw err;
    }
  }
}

/** A server of this test's own on `port`, not yet started. */
export function privateRedis(port: number): PrivateRedis {
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  const start = async () => {
    const own = spawn(REDIS_BINARY as string, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    child = own;
    const deadline = Date.now() + 10_000;
    for (;;) {
      // It exits at once when it cannot bind the port.
      if (own.exitCode !== null || own.signalCode !== null) throw new PortTaken(`port ${port} is taken`);
      const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        const pid = Number(/process_id:(\d+)/.exec(await probe.info('server'))?.[1]);
        if (pid === own.pid) return;
        await kill();
        throw new PortTaken(`port ${port} is served by another Redis (process ${pid})`);
      } catch (err) {
        if (err instanceof PortTaken || Date.now() > deadline) throw err;
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
      if (!running || running.exitCode !== null || running.signalCode !== null) return resolve();
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  process.once('exit', () => (child as ChildProcess | null)?.kill('SIGKILL'));
  return { url, port, kill, start };
}
