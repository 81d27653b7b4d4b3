import { randomUUID } from 'node:crypto';
import { logger } from '../../src/core/logger';
import { redisTransport, type LiveTransport } from '../../src/live/live.transport';
import { startHoldingProxy, type HoldingProxy } from '../helpers/holding-proxy';
import { note } from '../helpers/notes';
import { REDIS_BINARY, startPrivateRedis, type PrivateRedis } from '../helpers/redis-server';
import { sleep } from '../smoke/launch';

/**
 * A PUBLISH that Redis ran and delivered, whose answer the publisher's connection lost: ioredis
 * sends it again once it has reconnected (autoResendUnfulfilledCommands), and every instance whose
 * own connection stayed up heard the bid twice.
 */
async function until(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(20);
  }
}

if (!REDIS_BINARY && !process.env.REDIS_URL) {
  note('no REDIS_URL and no redis-server on PATH: the resent PUBLISH test is not registered');
} else {
  let redis: PrivateRedis | null = null;
  let url: string;
  let proxy: HoldingProxy;
  let publisher: LiveTransport;
  let subscriber: LiveTransport;
  const prefix = `test-${randomUUID()}:`;

  beforeAll(async () => {
    if (process.env.REDIS_URL) url = process.env.REDIS_URL;
    else {
      redis = await startPrivateRedis();
      url = redis.url;
    }
    proxy = await startHoldingProxy(url);
    // One instance's connections pass the proxy, the other's do not: only the publisher loses its connection.
    publisher = redisTransport(proxy.url, prefix, logger);
    subscriber = redisTransport(url, prefix, logger);
  });

  afterAll(async () => {
    await publisher.close();
    await subscriber.close();
    await proxy.close();
    await redis?.kill();
  });

  describe('a publication whose answer was lost with the connection', () => {
    it('reaches a subscriber whose connection stayed up once, and the publications after it too', async () => {
      const heard: unknown[] = [];
      const end = await subscriber.subscribe('bids', (message) => heard.push(message));
      await publisher.publish('bids', { bid: 1 });
      await until(() => heard.length === 1, 'the first bid heard');

      proxy.swallow();
      const lost = publisher.publish('bids', { bid: 2 });
      // Redis ran it: the subscriber heard it; its answer to the publisher is gone.
      await until(() => heard.length === 2, 'the second bid heard');
      proxy.cut();
      proxy.release();
      await lost;
      await publisher.publish('bids', { bid: 3 });
      await until(() => heard.some((m) => (m as { bid: number }).bid === 3), 'the third bid heard');
      await sleep(200);
      end();

      expect(heard).toEqual([{ bid: 1 }, { bid: 2 }, { bid: 3 }]);
    }, 30_000);
  });
}
