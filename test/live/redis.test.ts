import { randomUUID } from 'node:crypto';
import type { Keypair } from '@stellar/stellar-sdk';
import { Bid } from '../../src/modules/bids/bids.entity';
import { blacklist } from '../blacklist/support';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { startPrivateRedis, type PrivateRedis } from '../helpers/redis-server';
import { auction, bid, BID_PLACED, LOT_UPDATED, NOTIFICATION_ADDED, socketsClosedAfterEach } from './support';

// Two instances over one database and one Redis: REDIS_URL's, else a server of this test's own
// (test/run.mjs leaves this file out when there is neither); the prefix keeps parallel runs apart.
const env = { REDIS_URL: process.env.REDIS_URL ?? '', REDIS_PREFIX: `test-${randomUUID()}:` };
let redis: PrivateRedis | null = null;
let db: TestDatabase;
let a: TestApp;
let b: TestApp;
let platform: Keypair;
let users: CreatedAccount[];

beforeAll(async () => {
  if (!env.REDIS_URL) {
    redis = await startPrivateRedis();
    env.REDIS_URL = redis.url;
  }
  db = await createTestDatabase();
  a = await startTestApp(env, db);
  const master = a.master.secret();
  b = await startTestApp({ ...env, MASTER_SEED: master }, db);
  platform = await createPlatform(a);
  users = [await createAccount(a, platform), await createAccount(a, platform)];
});
afterAll(async () => {
  await a.close();
  await b.close();
  await db.drop();
  await redis?.kill();
});

const sockets = socketsClosedAfterEach();
const open = (t: TestApp, accountId?: string) => sockets.openFor(t, accountId);

/** The subscription is live on the instance once Redis counts a subscriber of its channel. */
async function subscribed(t: TestApp, channel: string, count: number): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(env.REDIS_URL);
  try {
    const deadline = Date.now() + 5000;
    for (;;) {
      const [, n] = (await redis.pubsub('NUMSUB', env.REDIS_PREFIX + channel)) as [string, number];
      if (Number(n) >= count) return;
      if (Date.now() > deadline) throw new Error(`no subscriber of ${channel} on ${t.baseUrl}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    redis.disconnect();
  }
}

const settle = () => new Promise((r) => setTimeout(r, 300));

describe('subscriptions across instances (Redis)', () => {
  it('delivers a bid accepted by instance A to subscribers of instance B, once each', async () => {
    const lotId = await auction(a, platform, [users[0].id, users[1].id]);
    const onB = (await open(b, platform.publicKey())).subscribe(BID_PLACED, { lotId });
    const lotOnB = (await open(b)).subscribe(LOT_UPDATED, { lotId });
    const onA = (await open(a)).subscribe(BID_PLACED, { lotId });
    await subscribed(b, `bid.${lotId}`, 2);
    await subscribed(b, `lot.${lotId}`, 1);

    await bid(a, users[0].keypair, lotId, { amount: '1000' });
    const [row] = await a.orm.em.fork().find(Bid, { lotId });
    expect(await onB.take(1)).toEqual([expect.objectContaining({ id: row.id, amount: '1000.00', bidderId: users[0].id })]);
    expect(await onA.take(1)).toEqual([expect.objectContaining({ id: row.id, bidderId: null })]);
    expect(await lotOnB.take(1)).toEqual([expect.objectContaining({ id: lotId, highestBid: '1000.00' })]);
    await settle();
    expect([onA.events.length, onB.events.length, lotOnB.events.length]).toEqual([1, 1, 1]);
  });

  it('delivers notifications committed on A to the recipient on B', async () => {
    const lotId = await auction(a, platform, [users[0].id, users[1].id]);
    const feed = (await open(b, users[0].id)).subscribe(NOTIFICATION_ADDED);
    await subscribed(b, `notification.${users[0].id}`, 1);
    await bid(a, users[0].keypair, lotId, { amount: '1000' });
    await bid(a, users[1].keypair, lotId, { amount: '1050' });
    expect(await feed.take(1)).toEqual([expect.objectContaining({ typeStr: 'overbid', meta: { lot_id: lotId } })]);
    await settle();
    expect(feed.events).toHaveLength(1);
  });

  it('closes the sockets on B of an account stopped through A', async () => {
    const socket = await open(b, users[1].id);
    await blacklist(a, platform, users[1].id, 'stopped');
    expect(await socket.closed).toEqual({ code: 4403, reason: 'account_blocked' });
  });
});
