import { NotificationType } from '../../src/modules/notifications/notifications.entity';
import { createAccount } from '../helpers/factories';
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
});
