import { NotificationType } from '../../src/modules/notifications/notifications.entity';
import { appWithPlatform } from '../helpers/world';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { emit, idsOf, markDoc } from './notifications.helpers';

const world = appWithPlatform();

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const codesOf = (res: { body: { errors: { code: string }[] } }) => res.body.errors.map((e) => e.code);

/** A user with, in this order: overbid, winner, deposit_received, overbid, invoice_attached. */
async function userWithNotifications(): Promise<{ user: CreatedAccount; ids: string[] }> {
  const user = await createAccount(world.t, world.platform);
  const ids: string[] = [];
  for (const [type, meta] of [
    [NotificationType.Overbid, { lot_id: '1' }],
    [NotificationType.Winner, { lot_id: '1' }],
    [NotificationType.DepositReceived, { lot_id: '2' }],
    [NotificationType.Overbid, { lot_id: '2' }],
    [NotificationType.InvoiceAttached, { lot_id: '1', invoice_id: 'inv.pdf' }],
  ] as const) {
    ids.push(...(await emit(world.t, type, [user.id], meta)));
  }
  return { user, ids };
}

describe('GET /notifications', () => {
  it("lists the caller's unread notifications newest first, with their attributes", async () => {
    const { user, ids } = await userWithNotifications();
    const other = await createAccount(world.t, world.platform);
    await emit(world.t, NotificationType.Winner, [other.id], { lot_id: '9' });
    const res = await world.t.client.as(user.keypair).get('/notifications');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
    expect(idsOf(res.body)).toEqual([...ids].reverse());
    expect(res.body.data[0]).toEqual({
      type: 'notifications',
      id: ids[4],
      attributes: { type: 8, type_str: 'invoice_attached', meta: { lot_id: '1', invoice_id: 'inv.pdf' }, created_at: expect.stringMatching(RFC3339) },
    });
    expect(res.body.meta).toEqual({ on_page: 5, total_items: 5 });
    expect(res.body.links).toMatchObject({ self: '/notifications', first: '/notifications?page[number]=0&page[size]=15' });
    expect(res.body.links.next).toBeUndefined();
  });

  it('sorts oldest first with sort=created_at, and answers the same through a bearer token', async () => {
    const { user, ids } = await userWithNotifications();
    const res = await world.t.client.as(user.keypair).get('/notifications?sort=created_at');
    expect(idsOf(res.body)).toEqual(ids);
    const token = (await world.t.client.post('/jwt', { data: { type: 'jwt', attributes: { account_id: user.id, password: user.password } } })).body.data.attributes.token;
    const viaJwt = await world.t.client.get('/notifications?sort=-created_at', { bearer: token });
    expect(viaJwt.status).toBe(200);
    expect(idsOf(viaJwt.body)).toEqual([...ids].reverse());
  });

  it('pages with page[number] and page[size], with links and the total', async () => {
    const { user, ids } = await userWithNotifications();
    const newest = [...ids].reverse();
    const first = await world.t.client.as(user.keypair).get('/notifications?page[size]=2');
    expect(idsOf(first.body)).toEqual(newest.slice(0, 2));
    expect(first.body.meta).toEqual({ on_page: 2, total_items: 5 });
    expect(first.body.links).toMatchObject({
      next: '/notifications?page[size]=2&page[number]=1',
      last: '/notifications?page[size]=2&page[number]=2',
    });
    const last = await world.t.client.as(user.keypair).get('/notifications?page[number]=2&page[size]=2');
    expect(idsOf(last.body)).toEqual(newest.slice(4));
    expect(last.body.meta).toEqual({ on_page: 1, total_items: 5 });
    expect(last.body.links.next).toBeUndefined();
    const beyond = await world.t.client.as(user.keypair).get('/notifications?page[number]=9&page[size]=2');
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta).toEqual({ on_page: 0, total_items: 5 });
  });

  it.each([
    ['an unknown sort key', 'sort=type', 'unknown_sort', 'sort'],
    ['a page size above 100', 'page[size]=101', 'invalid_page', 'page[size]'],
    ['a cursor', 'page[cursor]=abc', 'unknown_parameter', 'page[cursor]'],
    ['a filter', 'filter[type]=6', 'unknown_filter', 'filter[type]'],
    ['an unknown parameter', 'unread=true', 'unknown_parameter', 'unread'],
  ])('answers 400 for %s', async (_name, query, code, parameter) => {
    const user = await createAccount(world.t, world.platform);
    const res = await world.t.client.as(user.keypair).get(`/notifications?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0]).toMatchObject({ code, source: { parameter } });
  });

  it('answers 401 without authentication, before looking at the query', async () => {
    const res = await world.t.client.get('/notifications?sort=bogus');
    expect(res.status).toBe(401);
    expect(codesOf(res)).toEqual(['unauthenticated']);
  });
});

describe('GET /counts', () => {
  it('counts the unread notifications per type, by type, leaving out types with none', async () => {
    const { user, ids } = await userWithNotifications();
    const res = await world.t.client.as(user.keypair).get('/counts');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { type: 'notifications', id: '5', attributes: { count: 1, type_str: 'deposit_received' } },
      { type: 'notifications', id: '6', attributes: { count: 2, type_str: 'overbid' } },
      { type: 'notifications', id: '7', attributes: { count: 1, type_str: 'winner' } },
      { type: 'notifications', id: '8', attributes: { count: 1, type_str: 'invoice_attached' } },
    ]);
    await world.t.client.as(user.keypair).post('/notifications', markDoc(ids[1], ids[0]));
    const after = await world.t.client.as(user.keypair).get('/counts');
    expect(after.body.data.map((c: any) => [c.id, c.attributes.count])).toEqual([['5', 1], ['6', 1], ['8', 1]]);
  });

  it('is empty for an account without unread notifications, and 401 without authentication', async () => {
    const user = await createAccount(world.t, world.platform);
    expect((await world.t.client.as(user.keypair).get('/counts')).body).toEqual({ data: [] });
    const anonymous = await world.t.client.get('/counts');
    expect(anonymous.status).toBe(401);
    expect(codesOf(anonymous)).toEqual(['unauthenticated']);
  });
});

describe('DELETE /notifications/{id}', () => {
  it('marks one notification read: it leaves the list and the counts; again is 204 too', async () => {
    const { user, ids } = await userWithNotifications();
    const res = await world.t.client.as(user.keypair).delete(`/notifications/${ids[2]}`);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const list = await world.t.client.as(user.keypair).get('/notifications');
    expect(idsOf(list.body)).toEqual([ids[4], ids[3], ids[1], ids[0]]);
    expect(list.body.meta.total_items).toBe(4);
    const counts = await world.t.client.as(user.keypair).get('/counts');
    expect(counts.body.data.map((c: any) => c.id)).toEqual(['6', '7', '8']);
    expect((await world.t.client.as(user.keypair).delete(`/notifications/${ids[2]}`)).status).toBe(204);
  });

  it("answers 404 notification_not_found for someone else's notification and leaves it unread", async () => {
    const { user, ids } = await userWithNotifications();
    const other = await createAccount(world.t, world.platform);
    const res = await world.t.client.as(other.keypair).delete(`/notifications/${ids[0]}`);
    expect(res.status).toBe(404);
    expect(codesOf(res)).toEqual(['notification_not_found']);
    const staff = await world.t.client.as(world.platform).delete(`/notifications/${ids[0]}`);
    expect(staff.status).toBe(404);
    expect((await world.t.client.as(user.keypair).get('/notifications')).body.meta.total_items).toBe(5);
  });

  it('answers 404 notification_not_found for an unknown or malformed id, and 401 without authentication', async () => {
    const user = await createAccount(world.t, world.platform);
    for (const id of ['999999999', 'abc', '0']) {
      const res = await world.t.client.as(user.keypair).delete(`/notifications/${id}`);
      expect(res.status).toBe(404);
      expect(codesOf(res)).toEqual(['notification_not_found']);
    }
    const anonymous = await world.t.client.delete('/notifications/1');
    expect(anonymous.status).toBe(401);
    expect(codesOf(anonymous)).toEqual(['unauthenticated']);
  });
});

describe('POST /notifications', () => {
  it('marks several notifications read at once (duplicates and read ones included)', async () => {
    const { user, ids } = await userWithNotifications();
    await world.t.client.as(user.keypair).delete(`/notifications/${ids[0]}`);
    const res = await world.t.client.as(user.keypair).post('/notifications', markDoc(ids[0], ids[1], Number(ids[3]), ids[1]));
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const list = await world.t.client.as(user.keypair).get('/notifications');
    expect(idsOf(list.body)).toEqual([ids[4], ids[2]]);
  });

  it('accepts an empty list', async () => {
    const user = await createAccount(world.t, world.platform);
    expect((await world.t.client.as(user.keypair).post('/notifications', { data: [] })).status).toBe(204);
  });

  it("answers 404 for ids of no notification and of someone else's alike, and marks none of the list", async () => {
    const { user, ids } = await userWithNotifications();
    const other = await createAccount(world.t, world.platform);
    const [own] = await emit(world.t, NotificationType.Winner, [other.id], { lot_id: '5' });
    const res = await world.t.client.as(other.keypair).post('/notifications', markDoc(own, ids[0], '999999999'));
    expect(res.status).toBe(404);
    expect(res.body.errors.map((e: any) => [e.code, e.source.pointer])).toEqual([
      ['notification_not_found', '/data/1/id'],
      ['notification_not_found', '/data/2/id'],
    ]);
    expect((await world.t.client.as(other.keypair).get('/notifications')).body.meta.total_items).toBe(1);
    expect((await world.t.client.as(user.keypair).get('/notifications')).body.meta.total_items).toBe(5);
  });

  it.each([
    ['no body', undefined, 'missing_body', ''],
    ['data not an array', { data: { type: 'notifications', id: '1' } }, 'invalid_field', '/data'],
    ['a wrong type', { data: [{ type: 'lots', id: '1' }] }, 'invalid_field', '/data/0/type'],
    ['a missing type', { data: [{ id: '1' }] }, 'missing_field', '/data/0/type'],
    ['a malformed id', { data: [{ type: 'notifications', id: '1' }, { type: 'notifications', id: 'x1' }] }, 'invalid_field', '/data/1/id'],
    ['a missing id', { data: [{ type: 'notifications' }] }, 'missing_field', '/data/0/id'],
    ['more than 100 ids', markDoc(...Array.from({ length: 101 }, (_, i) => String(i + 1))), 'too_many_items', '/data'],
  ])('answers 400 for %s, pointing at the fault', async (_name, body, code, pointer) => {
    const user = await createAccount(world.t, world.platform);
    const res = await world.t.client.as(user.keypair).post('/notifications', body);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([expect.objectContaining({ code, source: { pointer } })]);
  });

  it('answers 401 without authentication, before looking at the body', async () => {
    const res = await world.t.client.post('/notifications', { data: 'nonsense' });
    expect(res.status).toBe(401);
    expect(codesOf(res)).toEqual(['unauthenticated']);
  });
});
