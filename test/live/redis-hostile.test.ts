import { randomUUID } from 'node:crypto';
import type { Keypair } from '@stellar/stellar-sdk';
import { Redis } from 'ioredis';
import { bearerFor, blacklist } from '../blacklist/support';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { note } from '../helpers/notes';
import { REDIS_BINARY, startPrivateRedis, type PrivateRedis } from '../helpers/redis-server';
import { auction, bid, BID_PLACED, LOT_UPDATED, NOTIFICATION_ADDED, socketsClosedAfterEach, until } from './support';

/**
 * The outside tester's hostile messages through Redis: what anyone who can PUBLISH on the shared
 * Redis (or a buggy older instance) sends on the channels of one instance, and what becomes of the
 * subscriptions of that instance. One app over REDIS_URL (else a private redis-server). Whoever
 * can publish there can announce a bid that was never placed (a well-formed one reaches the
 * subscribers: Redis is the instances' own); what must not follow is a stream ended, another lot
 * shown, or an instance that no longer hears its peers.
 */
const env = { REDIS_URL: process.env.REDIS_URL ?? '', REDIS_PREFIX: `test-${randomUUID()}:` };
let redis: PrivateRedis | null = null;
let raw: Redis;
let db: TestDatabase;
let t: TestApp;
let platform: Keypair;
let users: CreatedAccount[];

if (!REDIS_BINARY && !process.env.REDIS_URL) {
  note('no REDIS_URL and no redis-server on PATH: the hostile messages through Redis are not tried');
} else {
  beforeAll(async () => {
    if (!env.REDIS_URL) {
      redis = await startPrivateRedis();
      env.REDIS_URL = redis.url;
    }
    raw = new Redis(env.REDIS_URL);
    db = await createTestDatabase();
    t = await startTestApp(env, db);
    platform = await createPlatform(t);
    users = [await createAccount(t, platform), await createAccount(t, platform)];
  });
  afterAll(async () => {
    raw.disconnect();
    await t.close();
    await db.drop();
    await redis?.kill();
  });

  const sockets = socketsClosedAfterEach();
  /** Publishes `text` as it is, as anyone who can write to this Redis can. */
  const publish = (channel: string, text: string) => raw.publish(env.REDIS_PREFIX + channel, text);
  const settle = (ms = 300) => new Promise((r) => setTimeout(r, ms));
  const within = (test: () => boolean, ms: number) => until(test, ms, () => '').then(() => true, () => false);

  async function subscribed(channel: string): Promise<void> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const [, n] = (await raw.pubsub('NUMSUB', env.REDIS_PREFIX + channel)) as [string, number];
      if (Number(n) >= 1) return;
      if (Date.now() > deadline) throw new Error(`no subscriber of ${channel}`);
      await settle(20);
    }
  }

  /** The next message the app itself publishes on `channel`, as Redis carries it (stamp included). */
  async function nextReal(channel: string, cause: () => Promise<void>): Promise<Record<string, unknown>> {
    const listener = new Redis(env.REDIS_URL);
    try {
      const got = new Promise<Record<string, unknown>>((resolve) => listener.on('message', (_c, m: string) => resolve(JSON.parse(m))));
      await listener.subscribe(env.REDIS_PREFIX + channel);
      await cause();
      return await got;
    } finally {
      listener.disconnect();
    }
  }

  const GARBAGE = ['not json', '"a string"', '12', 'true', '[1,2]', '{}', '{"lotId":null}', '{"lotId":12}', '{"lotId":"999999"}'];
  const forgedBid = (lotId: string, over: Record<string, unknown> = {}) =>
    JSON.stringify({ id: '999', lotId, amount: '1.00', highestBid: '1.00', bidderId: 'GX', placedByProxy: false, createdAt: new Date().toISOString(), ...over });

  describe('lotUpdated', () => {
    // LiveFeeds loaded `e.lotId` from the message: a message without a real lot id ended the stream (lot_not_found).
    it.each(GARBAGE)('a message %s on the lot channel leaves the stream running', async (text) => {
      const lotId = await auction(t, platform, [users[0].id]);
      const feed = (await sockets.open(t)).subscribe(LOT_UPDATED, { lotId });
      await subscribed(`lot.${lotId}`);
      await publish(`lot.${lotId}`, text);
      await settle();
      await bid(t, users[0].keypair, lotId, { amount: '1000' });
      await within(() => feed.events.some((e: any) => e.highestBid === '1000.00') || feed.errors.length > 0, 5000);
      expect(feed.errors).toEqual([]);
    });

    // A message on lot A's channel naming lot B pushed lot B to lot A's subscribers.
    it("a message naming another lot pushes nothing but this lot's subscribers' lot", async () => {
      const lotId = await auction(t, platform, [users[0].id]);
      const other = await auction(t, platform, [users[0].id]);
      const feed = (await sockets.open(t)).subscribe(LOT_UPDATED, { lotId });
      await subscribed(`lot.${lotId}`);
      await publish(`lot.${lotId}`, JSON.stringify({ lotId: other }));
      await settle(500);
      expect(feed.events.map((e: any) => e.id).filter((id: string) => id !== lotId)).toEqual([]);
    });
  });

  describe('lotUpdated under a flood', () => {
    // Each change was one read of the lot per instance: 10,000 of them took the pool's connections, and the stream ended (database_unavailable).
    it('reads the lot a few times for 10,000 changes, and the stream goes on', async () => {
      const lotId = await auction(t, platform, [users[0].id]);
      const feed = (await sockets.open(t)).subscribe(LOT_UPDATED, { lotId });
      await subscribed(`lot.${lotId}`);
      const pipe = raw.pipeline();
      for (let i = 0; i < 10_000; i++) pipe.publish(env.REDIS_PREFIX + `lot.${lotId}`, JSON.stringify({ lotId }));
      await pipe.exec();
      await bid(t, users[0].keypair, lotId, { amount: '1000' });
      await within(() => feed.events.some((e: any) => e.highestBid === '1000.00') || feed.errors.length > 0, 60_000);
      expect(feed.errors).toEqual([]);
      expect(feed.events.some((e: any) => e.highestBid === '1000.00')).toBe(true);
      expect(feed.events.length).toBeLessThan(1000);
    }, 90_000);
  });

  describe('platformActivity', () => {
    const ACTIVITY = 'subscription ($platformId: String!) { platformActivity(platformId: $platformId) { id lotId amount bidderId } }';

    it("drops another platform's bid and what is no bid on the platform's channel, and delivers the next real bid", async () => {
      const platformId = platform.publicKey();
      const lotId = await auction(t, platform, [users[0].id]);
      const other = await createPlatform(t);
      const rivalLot = await auction(t, other, []);
      const feed = (await sockets.open(t, platform)).subscribe(ACTIVITY, { platformId });
      await subscribed(`platform.${platformId}.bid`);
      const hostile = [
        ...GARBAGE,
        'null',
        // A bid of another platform's lot, as that platform's activity would carry it: its staff's view, bidders named.
        forgedBid(rivalLot, { publisherId: other.publicKey() }),
        forgedBid(lotId),
        forgedBid(lotId, { publisherId: 7 }),
      ];
      for (const text of hostile) await publish(`platform.${platformId}.bid`, text);
      await settle();
      await bid(t, users[0].keypair, lotId, { amount: '1000' });
      await within(() => feed.events.length > 0 || feed.errors.length > 0 || feed.completed, 5000);
      expect({ events: feed.events.map((e: any) => [e.lotId, e.amount]), errors: feed.errors, completed: feed.completed }).toEqual({
        events: [[lotId, '1000.00']],
        errors: [],
        completed: false,
      });
    });
  });

  describe('bidPlaced', () => {
    it('drops what is no bid of the lot, without an error frame, and delivers the next real bid', async () => {
      const lotId = await auction(t, platform, [users[0].id]);
      const other = await auction(t, platform, [users[0].id]);
      const feed = (await sockets.open(t, platform)).subscribe(BID_PLACED, { lotId });
      await subscribed(`bid.${lotId}`);
      const hostile = [
        ...GARBAGE,
        'null',
        forgedBid(lotId, { createdAt: 'garbage' }),
        forgedBid(lotId, { amount: 12 }),
        forgedBid(lotId, { id: null }),
        forgedBid(lotId, { id: 'x', _live_from: 'a', _live_n: '1' }),
        forgedBid(lotId, { lotId: other }),
      ];
      for (const text of hostile) await publish(`bid.${lotId}`, text);
      await settle();
      await bid(t, users[0].keypair, lotId, { amount: '1000' });
      await within(() => feed.events.length > 0 || feed.errors.length > 0 || feed.completed, 5000);
      expect({ events: feed.events.map((e: any) => e.amount), errors: feed.errors, completed: feed.completed }).toEqual({ events: ['1000.00'], errors: [], completed: false });
    });

    it('passes a well-formed bid that was never placed, as every instance trusts its Redis', async () => {
      const lotId = await auction(t, platform, [users[0].id]);
      const feed = (await sockets.open(t, platform)).subscribe(BID_PLACED, { lotId });
      await subscribed(`bid.${lotId}`);
      await publish(`bid.${lotId}`, forgedBid(lotId, { bidderId: users[1].id, amount: '1000000.00', highestBid: '1000000.00' }));
      await within(() => feed.events.length > 0, 5000);
      expect(feed.events.map((e: any) => [e.id, e.amount])).toEqual([['999', '1000000.00']]);
      expect(JSON.stringify(feed.events)).not.toMatch(/_live_/);
    });

    // A bid with an id that is no integer, buffered while the replay (after) read, made BigInt throw: the stream ended with internal_error.
    it('a resuming subscriber (after) keeps its stream when a forged bid with id "x" arrives during its replay', async () => {
      const lotId = await auction(t, platform, [users[0].id]);
      await bid(t, users[0].keypair, lotId, { amount: '1000' });
      const socket = await sockets.open(t, platform);
      let flooding = true;
      const flood = (async () => {
        while (flooding) await publish(`bid.${lotId}`, forgedBid(lotId, { id: 'x' }));
      })();
      const feed = socket.subscribe(BID_PLACED, { lotId, after: '0' });
      await within(() => feed.events.length > 0 || feed.errors.length > 0, 5000);
      flooding = false;
      await flood;
      await settle();
      expect(feed.errors).toEqual([]);
    });
  });

  describe('notificationAdded', () => {
    // A meta nested 5000 deep overflowed the stack of LiveFanout's JSON.stringify, and the stream ended.
    it('a notification whose meta is nested 5000 deep leaves the stream running', async () => {
      const feed = (await sockets.open(t, await bearerFor(t, users[0].id))).subscribe(NOTIFICATION_ADDED);
      await subscribed(`notification.${users[0].id}`);
      const head = JSON.stringify({ id: '1', recipient: users[0].id, type: 1, typeStr: 'overbid', createdAt: new Date().toISOString() }).slice(0, -1);
      await publish(`notification.${users[0].id}`, `${head},"meta":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}}`);
      await settle();
      const lotId = await auction(t, platform, [users[0].id, users[1].id]);
      await bid(t, users[0].keypair, lotId, { amount: '1000' });
      await bid(t, users[1].keypair, lotId, { amount: '1050' });
      const got = await within(() => feed.events.some((e: any) => e.meta?.lot_id === lotId), 3000);
      expect({ got, errors: feed.errors }).toEqual({ got: true, errors: [] });
    }, 20_000);
  });

  describe('the numbers of a real publisher, forged', () => {
    it.each([
      ['not a safe integer', () => 1e300],
      ['far ahead', (n: number) => n + 20_000],
    ])('%s on a bid channel: the publisher is still heard', async (_, forged) => {
      const lotId = await auction(t, platform, [users[0].id]);
      const feed = (await sockets.open(t, platform)).subscribe(BID_PLACED, { lotId });
      await subscribed(`bid.${lotId}`);
      const real = await nextReal(`bid.${lotId}`, () => bid(t, users[0].keypair, lotId, { amount: '1000' }));
      await feed.take(1);
      await publish(`bid.${lotId}`, JSON.stringify({ ...real, id: '999999', _live_n: forged(real._live_n as number) }));
      await settle();
      await bid(t, users[0].keypair, lotId, { amount: '1050' });
      expect(await within(() => feed.events.some((e: any) => e.amount === '1050.00'), 3000)).toBe(true);
    }, 20_000);

    // account.stopped is subscribed once for the process: one number forged far ahead silenced every later stop of that publisher.
    it.each([
      ['not a safe integer', () => 1e300],
      ['far ahead', (n: number) => n + 20_000],
    ])('%s on account.stopped: a later stop still closes the sockets of the account', async (_, forged) => {
      const victim = await createAccount(t, platform);
      const real = await nextReal('account.stopped', async () => t.app.services.live.publishAccountStopped('nobody'));
      await publish('account.stopped', JSON.stringify({ ...real, _live_n: forged(real._live_n as number) }));
      await settle();
      const socket = await sockets.open(t, await bearerFor(t, victim.id));
      await blacklist(t, platform, victim.id, 'stopped');
      const closed = await Promise.race([socket.closed, settle(3000).then(() => 'still open')]);
      expect(closed).toEqual({ code: 4403, reason: 'account_blocked' });
    }, 20_000);

    it('a forged account.stopped without a stamp naming a real account closes its sockets (Redis is trusted)', async () => {
      const victim = await createAccount(t, platform);
      const socket = await sockets.open(t, await bearerFor(t, victim.id));
      await publish('account.stopped', JSON.stringify({ accountId: victim.id }));
      expect(await socket.closed).toEqual({ code: 4403, reason: 'account_blocked' });
    });
  });
}
