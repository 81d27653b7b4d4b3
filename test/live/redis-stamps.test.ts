import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { logger } from '../../src/core/logger';
import { LiveBus } from '../../src/live/live.bus';
import { TOPIC, type BidPlacedEvent } from '../../src/live/live.topics';
import { redisTransport, type LiveTransport } from '../../src/live/live.transport';
import { startHoldingProxy, type HoldingProxy } from '../helpers/holding-proxy';
import { note } from '../helpers/notes';
import { REDIS_BINARY, startPrivateRedis, type PrivateRedis } from '../helpers/redis-server';
import { sleep } from '../smoke/launch';

/**
 * The numbers each publisher gives its messages through Redis (`_live_from`, `_live_n`). A PUBLISH
 * that Redis ran and delivered, whose answer the publisher's connection lost: ioredis sends it
 * again once it has reconnected (autoResendUnfulfilledCommands), and every instance whose own
 * connection stayed up heard the bid twice. The outside tester's probes of the numbering follow.
 */
async function until(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(20);
  }
}

if (!REDIS_BINARY && !process.env.REDIS_URL) {
  note('no REDIS_URL and no redis-server on PATH: the tests of the numbered messages through Redis are not registered');
} else {
  let redis: PrivateRedis | null = null;
  let url: string;
  let proxy: HoldingProxy;
  let publisher: LiveTransport;
  let subscriber: LiveTransport;
  const prefix = `test-${randomUUID()}:`;
  const opened: LiveTransport[] = [];
  const transport = (at: string, max?: number) => {
    const made = redisTransport(at, prefix, logger, max);
    opened.push(made);
    return made;
  };
  /** Publishes `text` as it is, as anyone who can write to this Redis can. */
  async function publishRaw(channel: string, text: string): Promise<void> {
    const raw = new Redis(url);
    try {
      await raw.publish(prefix + channel, text);
    } finally {
      raw.disconnect();
    }
  }

  beforeAll(async () => {
    if (process.env.REDIS_URL) url = process.env.REDIS_URL;
    else {
      redis = await startPrivateRedis();
      url = redis.url;
    }
    proxy = await startHoldingProxy(url);
    // One instance's connections pass the proxy, the other's do not: only the publisher loses its connection.
    publisher = transport(proxy.url);
    subscriber = transport(url);
  });

  afterAll(async () => {
    await Promise.allSettled(opened.map((t) => t.close()));
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

  describe('what arrives through Redis', () => {
    it('passes a message that is no JSON object as it is, and goes on delivering', async () => {
      const heard: unknown[] = [];
      await subscriber.subscribe('account.stopped', (m) => heard.push(m));
      // Thrown from the Redis client's message handler, this ended the process (the outside tester's probe).
      await publishRaw('account.stopped', 'null');
      await publishRaw('account.stopped', '[1,2]');
      await transport(url).publish('account.stopped', { accountId: 'a' });
      await until(() => heard.length === 3, 'three messages heard');
      expect(heard).toEqual([null, [1, 2], { accountId: 'a' }]);
    });

    it('on a bid channel of the bus, drops a message that is no bid and goes on delivering bids', async () => {
      const bus = new LiveBus(transport(url));
      const heard: BidPlacedEvent[] = [];
      const off = await bus.onBid('77', (e) => heard.push(e));
      await publishRaw(TOPIC.bid('77'), 'null');
      const bid = { id: '1', lotId: '77', amount: '10.00', highestBid: '10.00', bidderId: 'G', placedByProxy: false, createdAt: new Date('2026-11-29T15:00:00Z') };
      bus.publishBid(bid);
      await until(() => heard.length === 1, 'the bid heard');
      off();
      expect(heard).toEqual([bid]);
    });

    it('from two publishers of one process, interleaved: every message once, without the numbers', async () => {
      const heard: { i: number }[] = [];
      await subscriber.subscribe('two', (m) => heard.push(m as { i: number }));
      const [a, b] = [transport(url), transport(url)];
      await Promise.all(Array.from({ length: 200 }, (_, i) => (i % 2 ? a : b).publish('two', { i })));
      await until(() => heard.length === 200, '200 heard');
      await sleep(100);
      expect(heard.filter((m) => Object.keys(m).some((k) => k.startsWith('_live_')))).toEqual([]);
      expect(new Set(heard.map((m) => m.i)).size).toBe(200);
      expect(heard).toHaveLength(200);
    });

    it('keeps the last numbers of 1024 publishers at most: the least recently heard is forgotten first', async () => {
      const heard: { i: number }[] = [];
      await subscriber.subscribe('many', (m) => heard.push(m as { i: number }));
      const first = randomUUID();
      const raw = new Redis(url);
      try {
        const sent = raw.pipeline();
        const send = (i: number, from: string, n: number) => sent.publish(`${prefix}many`, JSON.stringify({ i, _live_from: from, _live_n: n }));
        send(0, first, 5);
        send(1, first, 5);
        // Forged publishers by the thousand (anyone who can publish on Redis can): none is kept beyond the bound.
        for (let k = 0; k < 1024; k++) send(2, randomUUID(), 1);
        send(3, first, 5);
        await sent.exec();
      } finally {
        raw.disconnect();
      }
      await until(() => heard.some((m) => m.i === 3), 'the last heard');
      expect(heard.filter((m) => m.i !== 2).map((m) => m.i)).toEqual([0, 3]);
      expect(heard.filter((m) => m.i === 2)).toHaveLength(1024);
    });

    it('held by a bounded gate while the publisher is cut off: the newest kept, none dropped by its number', async () => {
      const cutOff = await startHoldingProxy(url);
      try {
        const heard: number[] = [];
        await subscriber.subscribe('held', (m) => heard.push((m as { i: number }).i));
        const held = transport(cutOff.url, 3);
        await held.publish('held', { i: 0 });
        await until(() => heard.length === 1, 'the first heard');
        cutOff.cut();
        await cutOff.refused(1);
        const during = Array.from({ length: 6 }, (_, i) => held.publish('held', { i: i + 1 }));
        cutOff.release();
        await Promise.all(during);
        await held.publish('held', { i: 7 });
        await until(() => heard.includes(7), 'the last heard');
        await sleep(200);
        expect(heard).toEqual([0, 4, 5, 6, 7]);
      } finally {
        await cutOff.close();
      }
    }, 30_000);
  });
}
