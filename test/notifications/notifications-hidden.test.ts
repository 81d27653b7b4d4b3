import type { Keypair } from '@stellar/stellar-sdk';
import { NotificationType } from '../../src/modules/notifications/notifications.entity';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { appWithPlatform } from '../helpers/world';
import { emit, idsOf, markDoc } from './notifications.helpers';

// Marking someone else's notification read is answered as marking one that does not exist, on
// every edge, so that its answer cannot tell whether an id is someone's notification.

const world = appWithPlatform();

const MISSING = '999999999';
const AS_READ = 'mutation($ids: [ID!]!) { markNotificationsAsRead(input: { ids: $ids }) { notificationIds userErrors { code field message } } }';
const READ_ONE = 'mutation($id: ID!) { markNotificationRead(id: $id) }';
const READ_MANY = 'mutation($ids: [ID!]!) { markNotificationsRead(ids: $ids) }';

/** A user's notification, and its callers (another user, its platform), each with one notification of its own. */
async function setting(): Promise<{ recipient: CreatedAccount; theirs: string; callers: [Keypair, string][] }> {
  const recipient = await createAccount(world.t, world.platform);
  const [theirs] = await emit(world.t, NotificationType.Winner, [recipient.id], { lot_id: '1' });
  const callers: [Keypair, string][] = [];
  for (const who of [(await createAccount(world.t, world.platform)).keypair, world.platform]) {
    callers.push([who, (await emit(world.t, NotificationType.Winner, [who.publicKey()], { lot_id: '2' }))[0]]);
  }
  return { recipient, theirs, callers };
}

/** What an answer tells: its status and errors, without what differs between any two requests. */
function told(res: { status: number; body: any }) {
  const errors = res.body.errors?.map(({ extensions, ...error }: any) => {
    const { requestId: _requestId, ...rest } = extensions ?? {};
    return { ...error, extensions: rest };
  });
  return { status: res.status, body: { ...res.body, errors } };
}

async function unread(who: Keypair, id: string): Promise<boolean> {
  return idsOf((await world.t.client.as(who).get('/notifications?page[size]=100')).body).includes(id);
}

describe("marking another account's notification read", () => {
  it('is answered as an id of no notification through REST, marking nothing', async () => {
    const { recipient, theirs, callers } = await setting();
    for (const [who, own] of callers) {
      const one = await world.t.client.as(who).delete(`/notifications/${theirs}`);
      expect(told(one)).toEqual(told(await world.t.client.as(who).delete(`/notifications/${MISSING}`)));
      expect(one.status).toBe(404);
      const many = await world.t.client.as(who).post('/notifications', markDoc(own, theirs));
      expect(told(many)).toEqual(told(await world.t.client.as(who).post('/notifications', markDoc(own, MISSING))));
      expect(many.body.errors).toEqual([expect.objectContaining({ code: 'notification_not_found', source: { pointer: '/data/1/id' } })]);
    }
    for (const [who, id] of [[recipient.keypair, theirs] as const, ...callers]) expect(await unread(who, id)).toBe(true);
  });

  it('is answered as an id of no notification through GraphQL, marking nothing', async () => {
    const { recipient, theirs, callers } = await setting();
    for (const [who, own] of callers) {
      const as = world.t.client.as(who);
      const payload = await as.graphql(AS_READ, { ids: [own, theirs] });
      expect(payload.body).toEqual((await as.graphql(AS_READ, { ids: [own, MISSING] })).body);
      expect(payload.body.data.markNotificationsAsRead).toEqual({
        notificationIds: null,
        userErrors: [{ code: 'NOTIFICATION_NOT_FOUND', field: 'ids.1', message: expect.any(String) }],
      });
      expect(told(await as.graphql(READ_ONE, { id: theirs }))).toEqual(told(await as.graphql(READ_ONE, { id: MISSING })));
      expect(told(await as.graphql(READ_MANY, { ids: [own, theirs] }))).toEqual(told(await as.graphql(READ_MANY, { ids: [own, MISSING] })));
    }
    for (const [who, id] of [[recipient.keypair, theirs] as const, ...callers]) expect(await unread(who, id)).toBe(true);
  });
});
