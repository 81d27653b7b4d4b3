import { startTestApp, type TestApp } from '../helpers/app';
import { absentAccountId, createAccount, type CreatedAccount } from '../helpers/factories';
import { createLot, DIRECT_SALE, ENG_LOT } from '../helpers/lots';
import type { Lot } from '../../src/modules/lots/lots.entity';
import { makeWorld, sent, unreadCount, type World } from './messages.helpers';

let t: TestApp;
let w: World;
let car: Lot;
let truck: Lot;
let seller: CreatedAccount;

const dialogs = (who: CreatedAccount['keypair'], query = '') => t.client.as(who).get(`/messages/dialogs${query}`);
const summary = (body: any) => body.data.map((d: any) => [d.attributes.lot_id, d.attributes.account_id, d.attributes.with, d.attributes.unread_messages]);
const markRead = (who: CreatedAccount['keypair'], accountId: string, attributes: Record<string, unknown>, slash = '/') =>
  t.client.as(who).patch(`/accounts/${accountId}/messages${slash}`, { data: { attributes } });

beforeAll(async () => {
  t = await startTestApp();
  w = await makeWorld(t);
  seller = w.admin;
  car = await createLot(t, seller.keypair, DIRECT_SALE);
  truck = await createLot(t, seller.keypair, ENG_LOT);
  await sent(t, w.buyer.keypair, w.buyer.id, seller.id, car.id, 'car 1');
  await sent(t, w.buyer.keypair, w.buyer.id, seller.id, car.id, 'car 2');
  await sent(t, seller.keypair, seller.id, w.buyer.id, car.id, 'car reply');
  await sent(t, w.buyer2.keypair, w.buyer2.id, seller.id, car.id, 'car from buyer2');
  await sent(t, w.buyer.keypair, w.buyer.id, seller.id, truck.id, 'truck 1');
});
afterAll(() => t.close());

describe('GET /messages/dialogs', () => {
  it("lists the caller's dialogs, one per companion and lot, latest first, with the companion's unread messages", async () => {
    const res = await dialogs(seller.keypair);
    expect(res.status).toBe(200);
    expect(summary(res.body)).toEqual([
      [Number(truck.id), seller.id, w.buyer.id, 1],
      [Number(car.id), seller.id, w.buyer2.id, 1],
      [Number(car.id), seller.id, w.buyer.id, 2],
    ]);
    expect(res.body.data[2]).toEqual({
      type: 'dialogs',
      id: `${car.id}-${seller.id}-${w.buyer.id}`,
      attributes: { lot_id: Number(car.id), with: w.buyer.id, unread_messages: 2, account_id: seller.id, last_message_at: expect.stringMatching(/Z$/) },
      relationships: {
        lot: { data: { type: 'lots', id: car.id } },
        members: { data: [{ type: 'accounts', id: seller.id }, { type: 'accounts', id: w.buyer.id }] },
      },
    });
    const buyer = await dialogs(w.buyer.keypair);
    expect(summary(buyer.body)).toEqual([
      [Number(truck.id), w.buyer.id, seller.id, 0],
      [Number(car.id), w.buyer.id, seller.id, 1],
    ]);
  });

  it('filters by with and lot_id, and includes lots and members', async () => {
    const res = await dialogs(seller.keypair, `?filter[with]=${w.buyer.id}&filter[lot_id]=${car.id}&include=lot,members`);
    expect(summary(res.body)).toEqual([[Number(car.id), seller.id, w.buyer.id, 2]]);
    expect(res.body.included.map((r: any) => `${r.type}:${r.id}`).sort()).toEqual([`accounts:${seller.id}`, `accounts:${w.buyer.id}`, `lots:${car.id}`].sort());
  });

  it("shows another account's dialogs to staff of the lots' publisher, and 403 to anyone else", async () => {
    const staff = await dialogs(w.platform, `?filter[receivers]=${w.buyer.id}`);
    expect(staff.status).toBe(200);
    expect(summary(staff.body)).toEqual([
      [Number(truck.id), w.buyer.id, seller.id, 0],
      [Number(car.id), w.buyer.id, seller.id, 1],
    ]);
    const otherStaff = await dialogs(w.otherAdmin.keypair, `?filter[receivers]=${w.buyer.id}`);
    expect(otherStaff.status).toBe(200);
    expect(otherStaff.body.data).toEqual([]);
    const stranger = await dialogs(w.stranger.keypair, `?filter[receivers]=${w.buyer.id}`);
    expect(stranger.status).toBe(403);
    expect(stranger.body.errors[0].code).toBe('not_allowed');
    // The companion sees its side of the other's dialog.
    const companion = await dialogs(w.buyer2.keypair, `?filter[receivers]=${seller.id}&filter[with]=${w.buyer2.id}`);
    expect(summary(companion.body)).toEqual([[Number(car.id), seller.id, w.buyer2.id, 1]]);
  });

  it('answers 401 unsigned and 400 for unknown or malformed filters', async () => {
    expect((await t.client.get('/messages/dialogs')).status).toBe(401);
    const unknown = await dialogs(seller.keypair, '?filter[sender]=x');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0]).toMatchObject({ code: 'unknown_filter', source: { parameter: 'filter[sender]' } });
    const bad = await dialogs(seller.keypair, '?filter[with]=nobody');
    expect(bad.body.errors[0]).toMatchObject({ code: 'invalid_parameter', source: { parameter: 'filter[with]' } });
    const paged = await dialogs(seller.keypair, '?page[size]=2');
    expect(paged.body.errors[0]).toMatchObject({ code: 'unknown_parameter', source: { parameter: 'page[size]' } });
  });
});

describe('GET /messages/unread', () => {
  it("counts the caller's unread messages, filtered by sender, lot and the sender's platform", async () => {
    const res = await t.client.as(seller.keypair).get('/messages/unread');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { type: 'unread_messages', id: seller.id, attributes: { count: 4 } } });
    expect(await unreadCount(t, seller.keypair, `?filter[sender]=${w.buyer.id}`)).toBe(3);
    expect(await unreadCount(t, seller.keypair, `?filter[lot_id]=${car.id}`)).toBe(3);
    expect(await unreadCount(t, seller.keypair, `?filter[sender]=${w.buyer.id}&filter[lot_id]=${truck.id}`)).toBe(1);
    expect(await unreadCount(t, seller.keypair, `?filter[platform]=${w.platform.publicKey()}`)).toBe(4);
    expect(await unreadCount(t, seller.keypair, `?filter[platform]=${w.otherPlatform.publicKey()}`)).toBe(0);
    expect(await unreadCount(t, w.buyer.keypair)).toBe(1);
  });

  it("counts another receiver's messages for the sender and for staff of the publisher; 403 for strangers", async () => {
    expect(await unreadCount(t, w.buyer.keypair, `?filter[receiver]=${seller.id}&filter[sender]=${w.buyer.id}`)).toBe(3);
    expect(await unreadCount(t, w.platform, `?filter[receiver]=${seller.id}`)).toBe(4);
    expect(await unreadCount(t, w.otherAdmin.keypair, `?filter[receiver]=${seller.id}`)).toBe(0);
    const stranger = await t.client.as(w.stranger.keypair).get(`/messages/unread?filter[receiver]=${seller.id}`);
    expect(stranger.status).toBe(403);
    expect(stranger.body.errors[0].code).toBe('not_allowed');
  });

  it('answers 401 unsigned and 400 for an unknown filter', async () => {
    expect((await t.client.get('/messages/unread')).status).toBe(401);
    const res = await t.client.as(seller.keypair).get('/messages/unread?filter[with]=x');
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ code: 'unknown_filter', source: { parameter: 'filter[with]' } });
  });
});

describe('PATCH /accounts/{id}/messages/', () => {
  it("marks one sender's messages about one lot read, which the counters and dialogs show", async () => {
    const res = await markRead(seller.keypair, seller.id, { sender: w.buyer.id, lot_id: Number(car.id) });
    expect(res.status).toBe(204);
    expect(await unreadCount(t, seller.keypair)).toBe(2);
    expect(await unreadCount(t, seller.keypair, `?filter[lot_id]=${car.id}&filter[sender]=${w.buyer.id}`)).toBe(0);
    expect(summary((await dialogs(seller.keypair)).body)).toEqual([
      [Number(truck.id), seller.id, w.buyer.id, 1],
      [Number(car.id), seller.id, w.buyer2.id, 1],
      [Number(car.id), seller.id, w.buyer.id, 0],
    ]);
    const listed = await t.client.as(seller.keypair).get(`/lots/${car.id}/messages?filter[sender]=${w.buyer.id}`);
    expect(listed.body.data.length).toBeGreaterThan(0);
    expect(listed.body.data.every((m: any) => typeof m.attributes.read_at === 'string')).toBe(true);
    // Again: nothing left to change.
    expect((await markRead(seller.keypair, seller.id, { sender: w.buyer.id, lot_id: car.id })).status).toBe(204);
    expect(await unreadCount(t, seller.keypair)).toBe(2);
  });

  it('is served without the trailing slash too, with data.type optional and any type accepted', async () => {
    const res = await t.client.as(seller.keypair).patch(`/accounts/${seller.id}/messages`, { data: { type: 'messages', attributes: { sender: w.buyer2.id, lot_id: car.id } } });
    expect(res.status).toBe(204);
    expect(await unreadCount(t, seller.keypair)).toBe(1);
  });

  it("lets staff of the receiver's platform mark for it, and refuses 403 to others", async () => {
    await sent(t, w.buyer2.keypair, w.buyer2.id, w.buyer.id, truck.id, 'between buyers');
    const stranger = await markRead(w.stranger.keypair, w.buyer.id, { sender: w.buyer2.id, lot_id: truck.id });
    expect(stranger.status).toBe(403);
    const viaOwnPath = await markRead(w.stranger.keypair, w.stranger.id, { receiver: w.buyer.id, sender: w.buyer2.id, lot_id: truck.id });
    expect(viaOwnPath.status).toBe(403);
    const other = await markRead(w.otherAdmin.keypair, w.buyer.id, { sender: w.buyer2.id, lot_id: truck.id });
    expect(other.status).toBe(403);
    expect(await unreadCount(t, w.buyer.keypair, `?filter[sender]=${w.buyer2.id}`)).toBe(1);
    const staff = await markRead(w.platform, w.buyer.id, { sender: w.buyer2.id, lot_id: truck.id });
    expect(staff.status).toBe(204);
    expect(await unreadCount(t, w.buyer.keypair, `?filter[sender]=${w.buyer2.id}`)).toBe(0);
  });

  it('answers 401 unsigned, 404 for an unknown account, 400 for malformed attributes or an unknown lot', async () => {
    expect((await t.client.patch(`/accounts/${seller.id}/messages/`, { data: { attributes: { sender: w.buyer.id, lot_id: car.id } } })).status).toBe(401);
    const other = await createAccount(t, w.platform);
    const ghost = absentAccountId(other.id);
    const missing = await markRead(seller.keypair, ghost, { sender: w.buyer.id, lot_id: car.id });
    expect(missing.status).toBe(404);
    expect(missing.body.errors[0].code).toBe('account_not_found');
    const malformed = await markRead(seller.keypair, seller.id, { lot_id: 'x' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors.map((e: any) => [e.code, e.source.pointer]).sort()).toEqual([
      ['invalid_field', '/data/attributes/lot_id'],
      ['missing_field', '/data/attributes/sender'],
    ]);
    const noLot = await markRead(seller.keypair, seller.id, { sender: w.buyer.id, lot_id: 99999999 });
    expect(noLot.status).toBe(400);
    expect(noLot.body.errors[0]).toMatchObject({ code: 'lot_not_found', source: { pointer: '/data/attributes/lot_id' } });
  });
});
