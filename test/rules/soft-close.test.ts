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
  it('sets extend_window and extend_by together, and max_extension_seconds, on both edges', async () => {
    const other = await createPlatform(one);
    const lone = await patchRules(one, other, other.publicKey(), { extend_window: 30 });
    expect(lone.body.errors[0]).toMatchObject({ status: '400', code: 'invalid_field', source: { pointer: '/data/attributes/extend_by' } });
    const set = await patchRules(one, other, other.publicKey(), { extend_window: 30, extend_by: 60, max_extension_seconds: 600 });
    expect(set.body.data.attributes).toMatchObject({ version: 1, extend_window: 30, extend_by: 60, max_extension_seconds: 600 });
    expect(set.body.data.attributes).not.toHaveProperty('max_extensions');
    const gql = await one.client.as(other).graphql(`query ($id: ID!) { platformRules(platformId: $id) { extendWindow extendBy maxExtensionSeconds } }`, { id: other.publicKey() });
    expect(gql.body.data.platformRules).toEqual({ extendWindow: 30, extendBy: 60, maxExtensionSeconds: 600 });
    const changed = await one.client.as(other).graphql(`mutation ($id: ID!) { updatePlatformRules(platformId: $id, rules: {maxExtensionSeconds: 90}) { version maxExtensionSeconds } }`, { id: other.publicKey() });
    expect(changed.body.data.updatePlatformRules).toEqual({ version: 2, maxExtensionSeconds: 90 });
    const count = await patchRules(one, other, other.publicKey(), { max_extensions: 3 });
    expect(count.body.errors[0]).toMatchObject({ status: '400', code: 'invalid_field' });
    const zero = await patchRules(one, other, other.publicKey(), { max_extension_seconds: 0 });
    expect(zero.body.errors[0]).toMatchObject({ status: '400', code: 'invalid_field', source: { pointer: '/data/attributes/max_extension_seconds' } });
  });

  it('reads a version stored with a count of moves as a cap of count × extend_by seconds, and drops the count on the next change', async () => {
    const legacy = await createPlatform(one);
    await one.orm.em.fork().getConnection().execute(`insert into platform_rules (platform_id, version, rules, created_by) values (?, 1, ?::jsonb, ?)`, [legacy.publicKey(), JSON.stringify({ extendWindow: 5, extendBy: 4, maxExtensions: 3 }), legacy.publicKey()]);
    const read = await one.client.as(legacy).get(`/platforms/${legacy.publicKey()}/rules`);
    expect(read.body.data.attributes).toMatchObject({ version: 1, extend_window: 5, extend_by: 4, max_extension_seconds: 12 });
    expect(read.body.data.attributes).not.toHaveProperty('max_extensions');
    const next = await patchRules(one, legacy, legacy.publicKey(), { extend_by: 10 });
    expect(next.body.data.attributes).toMatchObject({ version: 2, extend_by: 10, max_extension_seconds: 12 });
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

  it('gives a snipe just before the end its extension after bids a second apart, where a count of 3 moves gave none', async () => {
    // The platform's rules were stored as a count of moves before the cap was on time: 3 moves of extend_by 4 s.
    const staff = await createPlatform(one);
    await one.orm.em.fork().getConnection().execute(`insert into platform_rules (platform_id, version, rules, created_by) values (?, 1, ?::jsonb, ?)`, [staff.publicKey(), JSON.stringify({ extendWindow: 5, extendBy: 4, maxExtensions: 3 }), staff.publicKey()]);
    const lotId = await endingIn(3, staff);
    const original = (await lotOf(lotId)).endTime.getTime();
    const ends: number[] = [];
    for (const [i, amount] of ['1000', '1010', '1020'].entries()) {
      expect((await bid(one, users[i].keypair, lotId, { amount })).status).toBe(204);
      ends.push((await lotOf(lotId)).endTime.getTime());
      await new Promise((r) => setTimeout(r, 1100));
    }
    expect(ends[1]).toBeGreaterThan(ends[0]);
    expect(ends[2]).toBeGreaterThan(ends[1]);
    // Three moves added a few seconds in all; the sniper bids a second before the end in force.
    await new Promise((r) => setTimeout(r, Math.max(0, ends[2] - 1000 - Date.now())));
    expect((await bid(one, users[3].keypair, lotId, { amount: '1030' })).status).toBe(204);
    const snipe = (await one.orm.em.fork().find(Bid, { lotId }, { orderBy: { id: 'desc' }, limit: 1 }))[0];
    expect(snipe.createdAt.getTime()).toBeGreaterThan(ends[2] - 2000);
    const lot = await lotOf(lotId);
    expect(lot.endTime.getTime()).toBe(Math.min(wholeSecondAfter(snipe.createdAt, 4), original + 12_000));
    expect(lot.endTime.getTime()).toBeGreaterThan(ends[2]);
    expect(lot).toMatchObject({ extensions: 4, extendedSeconds: (lot.endTime.getTime() - original) / 1000 });
  });

  it('moves the end no further than max_extension_seconds past the end the lot was created with', async () => {
    const staff = await createPlatform(one);
    await setRules(one, staff, { extend_window: 5, extend_by: 4, max_extension_seconds: 2 });
    const lotId = await endingIn(3, staff);
    const original = (await lotOf(lotId)).endTime.getTime();
    for (const [i, amount] of ['1000', '1010', '1020'].entries()) {
      expect((await bid(one, users[i].keypair, lotId, { amount })).status).toBe(204);
      await new Promise((r) => setTimeout(r, 600));
    }
    const lot = await lotOf(lotId);
    expect(lot.endTime.getTime()).toBe(original + 2000);
    expect(lot.extendedSeconds).toBe(2);
    const notices = await one.orm.em.fork().count(Notification, { type: NotificationType.LotExtended, recipient: users[0].id, meta: { lot_id: lotId } } as never);
    expect(notices).toBe(lot.extensions);
    expect(lot.extensions).toBeLessThanOrEqual(2);
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
