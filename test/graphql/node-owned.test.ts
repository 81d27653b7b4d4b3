import { Notification, NotificationType } from '../../src/modules/notifications/notifications.entity';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { appWithTwoPlatforms } from '../helpers/world';

// A notification and a saved search are their account's alone: node(id:) refetches them for it
// (a notification read or not) and answers anyone else null, as for an id of no row.

const world = appWithTwoPlatforms();
let owner: CreatedAccount;
let neighbour: CreatedAccount;
const ids = { notification: '', search: '' };
const listed = { notification: {} as Record<string, unknown>, search: {} as Record<string, unknown> };

const NOTIFICATION = 'nodeId id typeStr createdAt payload { __typename lotId }';
const SEARCH = 'nodeId id accountId filterJson currency createdAt';

beforeAll(async () => {
  const { t, platform } = world;
  owner = await createAccount(t, platform);
  neighbour = await createAccount(t, platform);
  const em = t.orm.em.fork();
  em.create(Notification, { recipient: owner.id, type: NotificationType.Winner, meta: { lot_id: '1' } });
  await em.flush();
  const as = t.client.as(owner.keypair);
  const saved = await as.graphql(`mutation($id: String!) { saveSearch(accountId: $id, filter: { maker: "Toyota" }) { id } }`, { id: owner.id });
  expect(saved.body.errors).toBeUndefined();
  const lists = await as.graphql(`query($id: String!) { viewer { notifications { nodes { ${NOTIFICATION} } } } savedSearches(accountId: $id) { ${SEARCH} } }`, { id: owner.id });
  expect(lists.body.errors).toBeUndefined();
  listed.notification = lists.body.data.viewer.notifications.nodes[0];
  listed.search = lists.body.data.savedSearches[0];
  ids.notification = listed.notification.nodeId as string;
  ids.search = listed.search.nodeId as string;
});

const KINDS = {
  notification: { type: 'Notification', fields: NOTIFICATION, code: 'notification_not_found' },
  search: { type: 'SavedSearch', fields: SEARCH, code: 'saved_search_not_found' },
} as const;

const refetch = (client: typeof world.t.client, kind: keyof typeof KINDS, id = ids[kind]) =>
  client.graphql(`query($id: ID!) { node(id: $id) { nodeId ... on ${KINDS[kind].type} { ${KINDS[kind].fields} } } }`, { id });

describe('node(id:) of a notification and a saved search', () => {
  it.each(['notification', 'search'] as const)('answers the %s to its own account as its list does', async (kind) => {
    const res = await refetch(world.t.client.as(owner.keypair), kind);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.node).toEqual(listed[kind]);
  });

  it('answers a notification already read too', async () => {
    const as = world.t.client.as(owner.keypair);
    const read = await as.graphql(`mutation($id: ID!) { markNotificationsAsRead(input: { ids: [$id] }) { userErrors { code } } }`, { id: listed.notification.id });
    expect(read.body.data.markNotificationsAsRead.userErrors).toEqual([]);
    const res = await refetch(as, 'notification');
    expect(res.body.data.node).toEqual(listed.notification);
  });

  it.each(['notification', 'search'] as const)('answers the %s null to every other caller, as an id of no row', async (kind) => {
    const { platform, otherPlatform, admin, otherAdmin } = world;
    const others = { neighbour: neighbour.keypair, ownPlatform: platform, ownAdmin: admin.keypair, otherPlatform, otherAdmin: otherAdmin.keypair };
    for (const [name, keypair] of Object.entries(others)) {
      const res = await refetch(world.t.client.as(keypair), kind);
      expect({ name, node: res.body.data.node }).toEqual({ name, node: null });
      expect(res.body.errors[0].extensions).toMatchObject({ code: KINDS[kind].code, status: 404 });
      expect(JSON.stringify(res.body)).not.toContain(owner.id);
    }
    const absent = await refetch(world.t.client.as(neighbour.keypair), kind, Buffer.from(`${KINDS[kind].type}:987654321`).toString('base64url'));
    expect(absent.body.errors[0].extensions).toMatchObject({ code: KINDS[kind].code, status: 404 });
    const anonymous = await refetch(world.t.client, kind);
    expect(anonymous.body.data.node).toBeNull();
  });
});
