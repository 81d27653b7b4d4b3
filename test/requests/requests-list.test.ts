import type { Keypair } from '@stellar/stellar-sdk';
import { Lot, LotState } from '../../src/modules/lots/lots.entity';
import { CreateLotRequest } from '../../src/modules/requests/requests.entity';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform } from '../helpers/factories';
import { fileRequest, reviewDoc } from './requests.helpers';

let t: TestApp;
let platform: Keypair;
let admin: Keypair;
let u1: Keypair;
let u2: Keypair;
let otherPlatform: Keypair;
let v: Keypair;
/** r[1..8] on `platform`, v1 on `otherPlatform` (see beforeAll). */
const r: Record<number, string> = {};
let v1: string;

async function reviewed(request: CreateLotRequest, state: string): Promise<string | null> {
  const res = await t.client.as(admin).patch(`/requests/${request.id}`, reviewDoc(request.id, { hash: request.hash, state }));
  if (res.status !== 200) throw new Error(`review failed: ${res.status} ${res.text}`);
  return res.body.data.attributes.lot_id === null ? null : String(res.body.data.attributes.lot_id);
}

beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
  admin = (await createAccount(t, platform, { type: 'admin' })).keypair;
  u1 = (await createAccount(t, platform)).keypair;
  u2 = (await createAccount(t, platform)).keypair;
  otherPlatform = await createPlatform(t);
  v = (await createAccount(t, otherPlatform)).keypair;
  const requests: CreateLotRequest[] = [];
  for (const who of [u1, u1, u1, u2, u2, u2, u2, u2]) requests.push(await fileRequest(t, who));
  requests.forEach((req, i) => (r[i + 1] = req.id));
  await reviewed(requests[1], 'rejected');
  const ended = await reviewed(requests[2], 'approved');
  expect((await t.client.as(u2).delete(`/requests/${r[5]}`)).status).toBe(204);
  await reviewed(requests[5], 'permanently_rejected');
  await reviewed(requests[6], 'approved');
  const closed = await reviewed(requests[7], 'approved');
  const em = t.orm.em.fork();
  await em.nativeUpdate(Lot, { id: ended as string }, { endTime: new Date(Date.now() - 60_000) });
  await em.nativeUpdate(Lot, { id: closed as string }, { lotState: LotState.Finished });
  v1 = (await fileRequest(t, v)).id;
});
afterAll(() => t.close());

const ids = (...n: number[]) => n.map((i) => r[i]).sort();
async function list(who: Keypair, target: string): Promise<string[]> {
  const res = await t.client.as(who).get(target);
  if (res.status !== 200) throw new Error(`${target}: ${res.status} ${res.text}`);
  return res.body.data.map((d: any) => d.id).sort();
}

describe('GET /requests', () => {
  it('shows a user its own requests and staff their platform\'s, as create_lot_requests resources', async () => {
    const res = await t.client.as(u1).get('/requests?filter[type]=lots');
    expect(res.status).toBe(200);
    expect(res.body.data.map((d: any) => d.id).sort()).toEqual(ids(1, 2, 3));
    expect(res.body.data[0]).toMatchObject({ type: 'create_lot_requests', attributes: { lot_type: 1, lot_type_str: 'lot_type_eng', requestor: u1.publicKey() } });
    expect(res.body.meta).toEqual({ on_page: 3, total_items: 3 });
    expect(await list(admin, '/requests?filter[type]=lots')).toEqual(ids(1, 2, 3, 4, 5, 6, 7, 8));
    expect(await list(platform, '/requests?filter[type]=lots')).toEqual(ids(1, 2, 3, 4, 5, 6, 7, 8));
    expect(await list(otherPlatform, '/requests?filter[type]=lots')).toEqual([v1]);
    expect(await list(v, '/requests?filter[type]=lots')).toEqual([v1]);
  });

  it('filters by requestor', async () => {
    expect(await list(admin, `/requests?filter[type]=lots&filter[requestor]=${u2.publicKey()}`)).toEqual(ids(4, 5, 6, 7, 8));
    expect(await list(admin, `/requests?filter[type]=lots&filter[requestor]=${v.publicKey()}`)).toEqual([]);
  });

  it('filters by reviewer', async () => {
    expect(await list(admin, `/requests?filter[type]=lots&filter[reviewer]=${platform.publicKey()}`)).toEqual(ids(1, 2, 3, 4, 5, 6, 7, 8));
    expect(await list(admin, `/requests?filter[type]=lots&filter[reviewer]=${otherPlatform.publicKey()}`)).toEqual([]);
  });

  it('filters by a list of states', async () => {
    expect(await list(admin, '/requests?filter[type]=lots&filter[state]=pending,rejected')).toEqual(ids(1, 2, 4));
    expect(await list(admin, '/requests?filter[type]=lots&filter[state]=canceled')).toEqual(ids(5));
    expect(await list(admin, '/requests?filter[type]=lots&filter[state]=approved')).toEqual(ids(3, 7, 8));
    expect(await list(admin, '/requests?filter[type]=lots&filter[state]=permanently_rejected')).toEqual(ids(6));
    expect(await list(u1, '/requests?filter[type]=lots&filter[state]=canceled')).toEqual([]);
  });

  it('filters archived: rejected, permanently rejected, and approved whose lot ended or closed', async () => {
    expect(await list(admin, '/requests?filter[type]=lots&filter[archived]=true')).toEqual(ids(2, 3, 6, 8));
    expect(await list(admin, '/requests?filter[type]=lots&filter[archived]=false')).toEqual(ids(1, 4, 5, 7));
    expect(await list(v, '/requests?filter[type]=lots&filter[archived]=true')).toEqual([]);
  });

  it('combines filters', async () => {
    expect(await list(admin, `/requests?filter[type]=lots&filter[requestor]=${u1.publicKey()}&filter[archived]=false`)).toEqual(ids(1));
  });

  it('converts the prices with ?currency', async () => {
    const res = await t.client.as(u1).get('/requests?filter[type]=lots&currency=GEL');
    expect(res.status).toBe(200);
    for (const item of res.body.data) expect(item.attributes).toMatchObject({ currency: 'GEL', start_price: '2712.96', buy_now_price: '13564.81' });
  });

  it('answers 401 unsigned', async () => {
    const res = await t.client.get('/requests?filter[type]=lots');
    expect(res.status).toBe(401);
    expect(res.body.errors[0].code).toBe('unauthenticated');
  });

  it.each([
    ['', 'missing_parameter', 'filter[type]'],
    ['filter[state]=pending', 'missing_parameter', 'filter[type]'],
    ['filter[type]=accounts', 'invalid_parameter', 'filter[type]'],
    ['filter[type]=lots&filter[state]=open', 'invalid_parameter', 'filter[state]'],
    ['filter[type]=lots&filter[archived]=yes', 'invalid_parameter', 'filter[archived]'],
    ['filter[type]=lots&filter[currency]=EUR', 'unknown_filter', 'filter[currency]'],
    ['filter[type]=lots&currency=XYZ', 'invalid_parameter', 'currency'],
    ['filter[type]=lots&sort=price', 'unknown_sort', 'sort'],
    ['filter[type]=lots&page[size]=101', 'invalid_page', 'page[size]'],
    ['filter[type]=lots&page[number]=-1', 'invalid_page', 'page[number]'],
    ['filter[type]=lots&page[cursor]=abc', 'unknown_parameter', 'page[cursor]'],
    ['filter[type]=lots&include=lot', 'unknown_parameter', 'include'],
  ])('answers 400 to ?%s', async (query, code, parameter) => {
    const res = await t.client.as(admin).get(query ? `/requests?${query}` : '/requests');
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ code, source: { parameter } });
  });
});

describe('GET /accounts/{id}/create_lot_requests', () => {
  it('lists the account\'s requests to itself and to staff of its platform', async () => {
    expect(await list(u2, `/accounts/${u2.publicKey()}/create_lot_requests`)).toEqual(ids(4, 5, 6, 7, 8));
    expect(await list(admin, `/accounts/${u2.publicKey()}/create_lot_requests`)).toEqual(ids(4, 5, 6, 7, 8));
    const res = await t.client.as(u1).get(`/accounts/${u1.publicKey()}/create_lot_requests`);
    expect(res.body.meta).toEqual({ on_page: 3, total_items: 3 });
    expect(res.body.links.first).toBe(`/accounts/${u1.publicKey()}/create_lot_requests?page[number]=0&page[size]=15`);
  });

  it('lists the requests a platform reviews', async () => {
    expect(await list(admin, `/accounts/${platform.publicKey()}/create_lot_requests`)).toEqual(ids(1, 2, 3, 4, 5, 6, 7, 8));
    expect(await list(otherPlatform, `/accounts/${otherPlatform.publicKey()}/create_lot_requests`)).toEqual([v1]);
  });

  it('applies the filters', async () => {
    const base = `/accounts/${u2.publicKey()}/create_lot_requests`;
    expect(await list(u2, `${base}?filter[state]=approved`)).toEqual(ids(7, 8));
    expect(await list(u2, `${base}?filter[state]=pending`)).toEqual(ids(4));
    expect(await list(u2, `${base}?filter[archived]=true`)).toEqual(ids(6, 8));
    expect(await list(u2, `${base}?filter[archived]=false`)).toEqual(ids(4, 5, 7));
    expect(await list(admin, `${base}?filter[requestor]=${u2.publicKey()}`)).toEqual(ids(4, 5, 6, 7, 8));
    expect(await list(admin, `${base}?filter[requestor]=${u1.publicKey()}`)).toEqual([]);
    expect(await list(admin, `${base}?filter[reviewer]=${platform.publicKey()}`)).toEqual(ids(4, 5, 6, 7, 8));
    expect(await list(admin, `${base}?filter[reviewer]=${otherPlatform.publicKey()}`)).toEqual([]);
    const converted = await t.client.as(u2).get(`${base}?currency=EUR&filter[state]=pending`);
    expect(converted.body.data[0].attributes).toMatchObject({ currency: 'EUR', start_price: '925.93' });
  });

  it('answers 401 unsigned, 404 for an unknown account, 403 to anyone else', async () => {
    expect((await t.client.get(`/accounts/${u1.publicKey()}/create_lot_requests`)).status).toBe(401);
    const unknown = await t.client.as(admin).get(`/accounts/${'G'.padEnd(56, 'A')}/create_lot_requests`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].code).toBe('account_not_found');
    for (const [who, target] of [
      [u1, u2],
      [otherPlatform, u1],
      [v, platform],
    ] as const) {
      const res = await t.client.as(who).get(`/accounts/${target.publicKey()}/create_lot_requests`);
      expect(res.status).toBe(403);
      expect(res.body.errors[0].code).toBe('not_allowed');
    }
  });

  it('has no type filter', async () => {
    const res = await t.client.as(u1).get(`/accounts/${u1.publicKey()}/create_lot_requests?filter[type]=lots`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ code: 'unknown_filter', source: { parameter: 'filter[type]' } });
  });
});

describe('sorting and pagination', () => {
  let user: Keypair;
  let staff: Keypair;
  const s: string[] = [];
  beforeAll(async () => {
    staff = await createPlatform(t);
    user = (await createAccount(t, staff)).keypair;
    for (let i = 0; i < 5; i++) s.push((await fileRequest(t, user)).id);
    // created in order s0..s4; updated in the order s3, s1, s4, s0, s2; s0 and s1 created at the same instant.
    const at = (seconds: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds));
    const created = [0, 0, 2, 3, 4];
    const updated = [13, 11, 14, 10, 12];
    const em = t.orm.em.fork();
    for (let i = 0; i < 5; i++) await em.nativeUpdate(CreateLotRequest, { id: s[i] }, { createdAt: at(created[i]), updatedAt: at(updated[i]) });
  });
  const order = async (sort: string) => (await t.client.as(staff).get(`/requests?filter[type]=lots${sort}`)).body.data.map((d: any) => d.id);

  it('sorts by -created_at by default, ties by id in the same direction', async () => {
    expect(await order('')).toEqual([s[4], s[3], s[2], s[1], s[0]]);
    expect(await order('&sort=-created_at')).toEqual([s[4], s[3], s[2], s[1], s[0]]);
    expect(await order('&sort=created_at')).toEqual([s[0], s[1], s[2], s[3], s[4]]);
  });

  it('sorts by updated_at both ways', async () => {
    expect(await order('&sort=updated_at')).toEqual([s[3], s[1], s[4], s[0], s[2]]);
    expect(await order('&sort=-updated_at')).toEqual([s[2], s[0], s[4], s[1], s[3]]);
  });

  it('pages by number and size with first, last, next and prev links', async () => {
    const path = '/requests?filter[type]=lots&sort=created_at';
    const link = (n: number) => `/requests?filter[type]=lots&sort=created_at&page[number]=${n}&page[size]=2`;
    const first = await t.client.as(staff).get(`${path}&page[size]=2`);
    expect(first.body.data.map((d: any) => d.id)).toEqual([s[0], s[1]]);
    expect(first.body.meta).toEqual({ on_page: 2, total_items: 5 });
    // page[size] was sent first, so it stays first; every other parameter is kept.
    const sizeFirst = (n: number) => `/requests?filter[type]=lots&sort=created_at&page[size]=2&page[number]=${n}`;
    expect(first.body.links).toEqual({ self: `${path}&page[size]=2`, first: sizeFirst(0), last: sizeFirst(2), next: sizeFirst(1) });

    const middle = await t.client.as(staff).get(link(1));
    expect(middle.body.data.map((d: any) => d.id)).toEqual([s[2], s[3]]);
    expect(middle.body.links).toEqual({ self: link(1), first: link(0), last: link(2), next: link(2), prev: link(0) });

    const last = await t.client.as(staff).get(link(2));
    expect(last.body.data.map((d: any) => d.id)).toEqual([s[4]]);
    expect(last.body.meta).toEqual({ on_page: 1, total_items: 5 });
    expect(last.body.links).toEqual({ self: link(2), first: link(0), last: link(2), prev: link(1) });

    const beyond = await t.client.as(staff).get(link(7));
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta).toEqual({ on_page: 0, total_items: 5 });
    expect(beyond.body.links.prev).toBe(link(2));
    expect(beyond.body.links.next).toBeUndefined();
  });

  it('pages 15 by default and keeps the filters in the links', async () => {
    const res = await t.client.as(staff).get('/requests?filter[type]=lots&filter[state]=pending');
    expect(res.body.data).toHaveLength(5);
    expect(res.body.links).toEqual({
      self: '/requests?filter[type]=lots&filter[state]=pending',
      first: '/requests?filter[type]=lots&filter[state]=pending&page[number]=0&page[size]=15',
      last: '/requests?filter[type]=lots&filter[state]=pending&page[number]=0&page[size]=15',
    });
  });
});
