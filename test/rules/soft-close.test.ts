import type { Keypair } from '@stellar/stellar-sdk';
import { Bid } from '../../src/modules/bids/bids.entity';
import { Lot } from '../../src/modules/lots/lots.entity';
import { Notification, NotificationType } from '../../src/modules/notifications/notifications.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { ready, socketsClosedAfterEach, until } from '../live/support';
import { bid, patchRules, seat, setRules } from './rules.helpers';

// Two instances of the service on one database, as in production behind a balancer.
let db: TestDatabase;
let one: TestApp;
let two: TestApp;
let platform: Keypair;
let users: CreatedAccount[];

beforeAll(async () => {
  db = await createTestDatabase();
  one = await startTestApp({}, db);
  two = await startTestApp({}, db);
  platform = await createPlatform(one);
  users = [];
  for (let i = 0; i < 4; i++) users.push(await createAccount(one, platform));
  await setRules(one, platform, { extend_window: 5, extend_by: 3 });
});
afterAll(async () => {
  await one?.close();
  await two?.close();
  await db?.drop();
});

const sockets = socketsClosedAfterEach();

/** A soft-close lot of the shared platform whose end is `seconds` away, with every user seated. */
async function endingIn(seconds: number, staff = platform): Promise<string> {
  const lot = await createLot(one, staff, { ...ENG_LOT, min_step: '10', max_step: '100000' });
  await seat(one, lot.id, users.map((u) => u.id));
  await one.orm.em.fork().nativeUpdate(Lot, { id: lot.id }, { endTime: new Date(Math.ceil(Date.now() / 1000) * 1000 + seconds * 1000) });
  return lot.id;
}

const lotOf = (id: string) => one.orm.em.fork().findOneOrFail(Lot, { id });
const wholeSecondAfter = (d: Date, seconds: number) => Math.ceil((d.getTime() + seconds * 1000) / 1000) * 1000;

describe('soft close rules', () => {
  it('sets extend_window and extend_by together, and max_extensions', async () => {
    const other = await createPlatform(one);
    const lone = await patchRules(one, other, other.publicKey(), { extend_window: 30 });
    expect(lone.body.errors[0]).toMatchObject({ status: '400', code: 'invalid_field', source: { pointer: '/data/attributes/extend_by' } });
    const set = await patchRules(one, other, other.publicKey(), { extend_window: 30, extend_by: 60, max_extensions: 2 });
    expect(set.body.data.attributes).toMatchObject({ version: 1, extend_window: 30, extend_by: 60, max_extensions: 2 });
    const gql = await one.client.as(other).graphql(`query ($id: ID!) { platformRules(platformId: $id) { extendWindow extendBy maxExtensions } }`, { id: other.publicKey() });
    expect(gql.body.data.platformRules).toEqual({ extendWindow: 30, extendBy: 60, maxExtensions: 2 });
  });
});

describe('a bid in the last extend_window seconds', () => {
  it('moves the end to bid time + extend_by, shown at once by the lot and lotUpdated, and tells the participants', async () => {
    const lotId = await endingIn(2);
    const feed = (await sockets.open(one)).subscribe<{ endTime: string }>('subscription ($lotId: ID!) { lotUpdated(lotId: $lotId) { id endTime } }', { lotId });
    await ready(feed, () => one.app.services.live.publishLotChanged(lotId));
    // Live events cross instances only through Redis (test/live/fanout.test.ts): the subscriber is on the bid's instance.
    expect((await bid(one, users[0].keypair, lotId, { amount: '1000' })).status).toBe(204);
    const [placed] = await one.orm.em.fork().find(Bid, { lotId });
    const lot = await lotOf(lotId);
    expect(lot.endTime.getTime()).toBe(wholeSecondAfter(placed.createdAt, 3));
    expect(lot.extensions).toBe(1);
    expect(lot.duration).toBe((lot.endTime.getTime() - lot.startTime.getTime()) / 1000);
    expect((await one.client.get(`/lots/${lotId}`)).body.data.attributes.end_time).toBe(lot.endTime.toISOString().replace('.000Z', 'Z'));
    // A probe of `ready` may still arrive late under load, with the old end: wait for the bid's event.
    await until(() => feed.events.some((e) => Date.parse(e.endTime) === lot.endTime.getTime()), 5000, () => `lotUpdated with the new end (got ${JSON.stringify(feed.events)})`);
    const notices = await one.orm.em.fork().find(Notification, { type: NotificationType.LotExtended, meta: { lot_id: lotId } } as never, { orderBy: { recipient: 'asc' } });
    expect(notices.map((n) => n.recipient)).toEqual(users.map((u) => u.id).sort());
    expect(notices[0].meta).toEqual({ lot_id: lotId, end_time: lot.endTime.toISOString().replace('.000Z', 'Z') });
    const listed = await one.client.as(users[1].keypair).get('/notifications');
    expect(listed.body.data).toEqual(expect.arrayContaining([expect.objectContaining({ attributes: expect.objectContaining({ type: 30, type_str: 'lot_extended' }) })]));
  });

  it('leaves the end of a bid outside the window, and of a lot created without soft close', async () => {
    const far = await endingIn(60);
    const before = (await lotOf(far)).endTime.getTime();
    expect((await bid(one, users[0].keypair, far, { amount: '1000' })).status).toBe(204);
    expect((await lotOf(far)).endTime.getTime()).toBe(before);
    const plain = await createPlatform(one);
    const lotId = await endingIn(2, plain);
    const end = (await lotOf(lotId)).endTime.getTime();
    expect((await bid(one, users[0].keypair, lotId, { amount: '1000' })).status).toBe(204);
    expect(await lotOf(lotId)).toMatchObject({ extensions: 0 });
    expect((await lotOf(lotId)).endTime.getTime()).toBe(end);
  });

  it('moves the end at most max_extensions times', async () => {
    const staff = await createPlatform(one);
    await setRules(one, staff, { extend_window: 5, extend_by: 4, max_extensions: 2 });
    const lotId = await endingIn(3, staff);
    const ends: number[] = [];
    for (const [i, amount] of ['1000', '1010', '1020'].entries()) {
      expect((await bid(one, users[i].keypair, lotId, { amount })).status).toBe(204);
      ends.push((await lotOf(lotId)).endTime.getTime());
      await new Promise((r) => setTimeout(r, 1100));
    }
    expect(ends[1]).toBeGreaterThan(ends[0]);
    expect(ends[2]).toBe(ends[1]);
    expect(await lotOf(lotId)).toMatchObject({ extensions: 2 });
  });
});

describe('bids racing the end on two instances', () => {
  it('accepts no bid after the end in force, and leaves the end at the last bid + extend_by', async () => {
    const lotId = await endingIn(2);
    const original = (await lotOf(lotId)).endTime.getTime();
    const stopAt = original + 2500;
    let next = 0;
    const refusals: string[] = [];
    // Each user bids again and again on the instance of its own, with amounts no two requests share.
    const bidder = async (u: CreatedAccount, app: TestApp) => {
      while (Date.now() < stopAt) {
        const res = await bid(app, u.keypair, lotId, { amount: String(1000 + 10 * next++) });
        if (res.status !== 204) refusals.push(res.body.errors[0].code);
      }
    };
    await Promise.all(users.map((u, i) => bidder(u, i % 2 ? two : one)));
    const bids = await one.orm.em.fork().find(Bid, { lotId }, { orderBy: { id: 'asc' } });
    const lot = await lotOf(lotId);
    expect(refusals.filter((c) => c !== 'bid_too_low' && c !== 'lot_not_active')).toEqual([]);
    expect(bids.some((b) => b.createdAt.getTime() > original)).toBe(true);
    for (const b of bids) expect(b.createdAt.getTime()).toBeLessThan(lot.endTime.getTime());
    const last = bids[bids.length - 1];
    expect(lot.endTime.getTime()).toBe(wholeSecondAfter(last.createdAt, 3));
    const notices = await one.orm.em.fork().count(Notification, { type: NotificationType.LotExtended, recipient: users[0].id, meta: { lot_id: lotId } } as never);
    expect(notices).toBe(lot.extensions);
    expect(lot.extensions).toBeGreaterThan(1);
  });
});
