import { NotificationType } from '../../src/modules/notifications/notifications.entity';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { appWithPlatform } from '../helpers/world';
import { emit } from '../notifications/notifications.helpers';

const world = appWithPlatform();

const NOTICES = `{ viewer { notifications(first: 5) { nodes { payload { __typename ... on MessageNotice { senderId receiverId sender { id } receiver { id } } } } } } }`;

describe('MessageNotice accounts', () => {
  it('answers the sender and the receiver as accounts beside their ids', async () => {
    const buyer = await createAccount(world.t, world.platform);
    const seller = await createAccount(world.t, world.platform);
    await emit(world.t, NotificationType.MessageFromBuyer, [seller.id], { lot_id: '1', sender_id: buyer.id, receiver_id: seller.id });
    const res = await world.t.client.as(seller.keypair).graphql(NOTICES);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.viewer.notifications.nodes).toEqual([
      { payload: { __typename: 'MessageNotice', senderId: buyer.id, receiverId: seller.id, sender: { id: buyer.id }, receiver: { id: seller.id } } },
    ]);
  });

  // Each account as `account(id:)` shows it to the viewer: another platform's user and a
  // fellow user in the public view (no email, phone or address), the viewer itself and, to
  // staff, their platform's users in full.
  const ACCOUNT = 'id platformId firstName email phoneNumber address emailVerified';
  const PRIVATE = `{ viewer { notifications(first: 5) { nodes { payload { ... on MessageNotice { sender { ${ACCOUNT} } receiver { ${ACCOUNT} } } } } } } }`;

  async function noticeAccounts(viewer: CreatedAccount) {
    const res = await world.t.client.as(viewer.keypair).graphql(PRIVATE);
    expect(res.body.errors).toBeUndefined();
    return res.body.data.viewer.notifications.nodes[0].payload;
  }

  async function accountAs(viewer: CreatedAccount, id: string) {
    const res = await world.t.client.as(viewer.keypair).graphql(`query($id: String!) { account(id: $id) { ${ACCOUNT} } }`, { id });
    expect(res.body.errors).toBeUndefined();
    return res.body.data.account;
  }

  it('shows another platform’s sender and a fellow user only in the public view, as account(id:) does', async () => {
    const foreigner = await createAccount(world.t, await createPlatform(world.t));
    const fellow = await createAccount(world.t, world.platform);
    const seller = await createAccount(world.t, world.platform);
    await emit(world.t, NotificationType.MessageFromBuyer, [seller.id], { lot_id: '1', sender_id: foreigner.id, receiver_id: fellow.id });
    const { sender, receiver } = await noticeAccounts(seller);
    expect(sender).toEqual(await accountAs(seller, foreigner.id));
    expect(receiver).toEqual(await accountAs(seller, fellow.id));
    for (const account of [sender, receiver]) expect(account).toMatchObject({ email: null, phoneNumber: null, address: null, emailVerified: null });
    expect(sender).toMatchObject({ id: foreigner.id, firstName: 'Ann' });
  });

  it('shows the viewer itself, and to staff their platform’s users, in full; another platform’s user still public', async () => {
    const admin = await createAccount(world.t, world.platform, { type: 'admin' });
    const buyer = await createAccount(world.t, world.platform);
    const foreigner = await createAccount(world.t, await createPlatform(world.t));
    await emit(world.t, NotificationType.MessageFromBuyer, [admin.id], { lot_id: '1', sender_id: buyer.id, receiver_id: admin.id });
    const own = await noticeAccounts(admin);
    expect(own.sender).toMatchObject({ id: buyer.id, email: buyer.email });
    expect(own.receiver).toMatchObject({ id: admin.id, email: admin.email });
    await emit(world.t, NotificationType.MessageFromBuyer, [admin.id], { lot_id: '1', sender_id: foreigner.id, receiver_id: admin.id });
    const foreign = await noticeAccounts(admin);
    expect(foreign.sender).toEqual(await accountAs(admin, foreigner.id));
    expect(foreign.sender).toMatchObject({ email: null, phoneNumber: null });
  });
});
