import { Notification, NotificationType } from '../../src/modules/notifications/notifications.entity';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';

// The DateTimeISO twins of the String times: the same instant in the same text, and null exactly
// where the String is (an account's public view leaves both out).

const world = appWithPlatform();
let user: CreatedAccount;
let other: CreatedAccount;

beforeAll(async () => {
  const { t, platform } = world;
  user = await createAccount(t, platform);
  other = await createAccount(t, platform);
  const lotId = String((await createLot(t, platform, ENG_LOT)).id);
  const em = t.orm.em.fork();
  em.create(Notification, { recipient: user.id, type: NotificationType.Winner, meta: { lot_id: lotId }, createdAt: new Date('2026-03-04T05:06:07.890Z') });
  await em.flush();
  const as = t.client.as(user.keypair);
  const made = await as.graphql(
    `mutation($id: String!, $lot: ID!) { saveSearch(accountId: $id, filter: { maker: "Toyota" }) { id } addStar(input: { lotId: $lot, accountId: $id }) { userErrors { code } } }`,
    { id: user.id, lot: lotId },
  );
  expect(made.body.errors).toBeUndefined();
});

describe('DateTimeISO twins of String times', () => {
  it('answers each time twice, the same text', async () => {
    const res = await world.t.client.as(user.keypair).graphql(
      `query($id: String!) {
        viewer { notifications { nodes { createdAt createdTime } } watchlist { nodes { createdAt createdTime } } account { createdAt createdTime updatedAt updatedTime } }
        savedSearches(accountId: $id) { createdAt createdTime }
      }`,
      { id: user.id },
    );
    expect(res.body.errors).toBeUndefined();
    const { viewer, savedSearches } = res.body.data;
    const pairs = [viewer.notifications.nodes[0], viewer.watchlist.nodes[0], savedSearches[0], viewer.account];
    expect(viewer.notifications.nodes[0]).toEqual({ createdAt: '2026-03-04T05:06:07Z', createdTime: '2026-03-04T05:06:07Z' });
    for (const p of pairs) {
      expect(p.createdTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      expect(p.createdTime).toBe(p.createdAt);
    }
    expect(viewer.account.updatedTime).toBe(viewer.account.updatedAt);
  });

  it('leaves an account’s times out of its public view alike', async () => {
    const res = await world.t.client.as(other.keypair).graphql(`query($id: String!) { account(id: $id) { createdAt createdTime updatedAt updatedTime } }`, { id: user.id });
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.account).toEqual({ createdAt: null, createdTime: null, updatedAt: null, updatedTime: null });
  });
});
