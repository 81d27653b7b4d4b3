import { NotificationType } from '../../src/modules/notifications/notifications.entity';
import { appWithPlatform } from '../helpers/world';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { emit, listen } from './notifications.helpers';

const world = appWithPlatform();

const LIST = `query($page: Int, $size: Int, $sort: String) {
  notifications(page: $page, size: $size, sort: $sort) { totalItems page size items { id type typeStr meta createdAt } } }`;
const COUNTS = `{ notificationCounts { type typeStr count } }`;
const MARK = `mutation($id: ID!) { markNotificationRead(id: $id) }`;
const MARK_MANY = `mutation($ids: [ID!]!) { markNotificationsRead(ids: $ids) }`;
const REPORT = `mutation($type: Int!, $recipient: String!, $meta: JSONObject) { reportNotificationEvent(type: $type, recipient: $recipient, meta: $meta) }`;

const errorOf = (res: { body: { errors: any[] } }) => ({ code: res.body.errors[0].extensions.code, status: res.body.errors[0].extensions.status });

async function userWith(types: NotificationType[]): Promise<{ user: CreatedAccount; ids: string[] }> {
  const user = await createAccount(world.t, world.platform);
  const ids: string[] = [];
  for (const type of types) ids.push(...(await emit(world.t, type, [user.id], { lot_id: String(type) })));
  return { user, ids };
}

describe('GraphQL notifications', () => {
  it('lists the unread notifications newest first, pages them and counts them per type', async () => {
    const { user, ids } = await userWith([NotificationType.Overbid, NotificationType.Winner, NotificationType.Overbid]);
    const res = await world.t.client.as(user.keypair).graphql(LIST, { size: 2 });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.notifications).toEqual({
      totalItems: 3,
      page: 0,
      size: 2,
      items: [
        { id: ids[2], type: 6, typeStr: 'overbid', meta: { lot_id: '6' }, createdAt: expect.stringMatching(/Z$/) },
        { id: ids[1], type: 7, typeStr: 'winner', meta: { lot_id: '7' }, createdAt: expect.stringMatching(/Z$/) },
      ],
    });
    const second = await world.t.client.as(user.keypair).graphql(LIST, { page: 1, size: 2 });
    expect(second.body.data.notifications.items.map((n: any) => n.id)).toEqual([ids[0]]);
    const oldest = await world.t.client.as(user.keypair).graphql(LIST, { sort: 'created_at' });
    expect(oldest.body.data.notifications.items.map((n: any) => n.id)).toEqual(ids);
    const counts = await world.t.client.as(user.keypair).graphql(COUNTS);
    expect(counts.body.data.notificationCounts).toEqual([
      { type: 6, typeStr: 'overbid', count: 2 },
      { type: 7, typeStr: 'winner', count: 1 },
    ]);
  });

  it('marks one and several read', async () => {
    const { user, ids } = await userWith([NotificationType.Overbid, NotificationType.Winner, NotificationType.DepositPending]);
    const one = await world.t.client.as(user.keypair).graphql(MARK, { id: ids[0] });
    expect(one.body).toEqual({ data: { markNotificationRead: true } });
    const many = await world.t.client.as(user.keypair).graphql(MARK_MANY, { ids: [ids[1], ids[2]] });
    expect(many.body).toEqual({ data: { markNotificationsRead: true } });
    const list = await world.t.client.as(user.keypair).graphql(LIST);
    expect(list.body.data.notifications).toMatchObject({ totalItems: 0, items: [] });
    expect((await world.t.client.as(user.keypair).graphql(COUNTS)).body.data.notificationCounts).toEqual([]);
  });

  it('answers the same codes as REST', async () => {
    const { user, ids } = await userWith([NotificationType.Winner]);
    const other = await createAccount(world.t, world.platform);
    expect(errorOf(await world.t.client.as(other.keypair).graphql(MARK, { id: ids[0] }))).toEqual({ code: 'notification_not_found', status: 404 });
    expect(errorOf(await world.t.client.as(other.keypair).graphql(MARK, { id: '99999999' }))).toEqual({ code: 'notification_not_found', status: 404 });
    expect(errorOf(await world.t.client.as(other.keypair).graphql(MARK_MANY, { ids: [ids[0]] }))).toEqual({ code: 'notification_not_found', status: 404 });
    const malformed = await world.t.client.as(other.keypair).graphql(MARK_MANY, { ids: ['1', 'x'] });
    expect(errorOf(malformed)).toEqual({ code: 'invalid_field', status: 400 });
    expect(malformed.body.errors[0].extensions.errors).toEqual([expect.objectContaining({ code: 'invalid_field', field: 'ids.1' })]);
    expect(errorOf(await world.t.client.as(user.keypair).graphql(LIST, { size: 101 }))).toEqual({ code: 'invalid_field', status: 400 });
    expect(errorOf(await world.t.client.as(user.keypair).graphql(LIST, { sort: 'type' }))).toEqual({ code: 'invalid_field', status: 400 });
    for (const query of [LIST, COUNTS]) expect(errorOf(await world.t.client.graphql(query))).toEqual({ code: 'unauthenticated', status: 401 });
    expect(errorOf(await world.t.client.graphql(MARK, { id: ids[0] }))).toEqual({ code: 'unauthenticated', status: 401 });
    expect(errorOf(await world.t.client.graphql(MARK_MANY, { ids: [ids[0]] }))).toEqual({ code: 'unauthenticated', status: 401 });
  });

  it('reports an event as a platform, with the same permissions and validation as REST', async () => {
    const user = await createAccount(world.t, world.platform);
    const heard = listen(world.t, user.id);
    const res = await world.t.client.as(world.platform).graphql(REPORT, { type: 12, recipient: user.id, meta: { request_id: '4' } });
    heard.stop();
    expect(res.body).toEqual({ data: { reportNotificationEvent: true } });
    expect(heard.heard.map((n) => [n.type, n.typeStr, n.meta])).toEqual([[12, 'history_report_for_registered', { request_id: '4' }]]);
    expect(errorOf(await world.t.client.as(user.keypair).graphql(REPORT, { type: 12, recipient: user.id }))).toEqual({ code: 'not_allowed', status: 403 });
    const wrongType = await world.t.client.as(world.platform).graphql(REPORT, { type: 7, recipient: user.id });
    expect(errorOf(wrongType)).toEqual({ code: 'invalid_field', status: 400 });
    expect(wrongType.body.errors[0].extensions.errors).toEqual([expect.objectContaining({ field: 'type' })]);
    const badMeta = await world.t.client.as(world.platform).graphql(REPORT, { type: 12, recipient: user.id, meta: { request_id: 4 } });
    expect(errorOf(badMeta)).toEqual({ code: 'invalid_field', status: 400 });
    expect(errorOf(await world.t.client.as(world.platform).graphql(REPORT, { type: 12, recipient: 'GNOBODY' }))).toEqual({ code: 'recipient_not_found', status: 400 });
    expect(errorOf(await world.t.client.graphql(REPORT, { type: 12, recipient: user.id }))).toEqual({ code: 'unauthenticated', status: 401 });
  });
});
