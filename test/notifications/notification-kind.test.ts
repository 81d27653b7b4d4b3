import { NOTIFICATION_TYPE_CODES, NotificationType, typeStrOf } from '../../src/modules/notifications/notifications.entity';
import { appWithPlatform } from '../helpers/world';
import { createAccount } from '../helpers/factories';
import { emit } from './notifications.helpers';

const world = appWithPlatform();

const KINDS = `{ __type(name: "NotificationKind") { enumValues { name } } }`;
const FIELDS = `{ __type(name: "Notification") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }`;
const LISTS = `{ viewer { notifications(first: 5) { nodes { kind type typeStr } } } notificationCounts { kind type typeStr count } }`;

describe('Notification.kind', () => {
  it('names every type code once, as its REST type_str in capitals', async () => {
    const res = await world.t.client.graphql(KINDS);
    expect(res.body.data.__type.enumValues.map((v: { name: string }) => v.name).sort()).toEqual(
      NOTIFICATION_TYPE_CODES.map((c) => typeStrOf(c).toUpperCase()).sort(),
    );
    const fields = (await world.t.client.graphql(FIELDS)).body.data.__type.fields;
    expect(fields.filter((f: { name: string }) => f.name === 'type' || f.name === 'typeStr')).toEqual([
      { name: 'type', isDeprecated: true, deprecationReason: 'Use `kind`' },
      { name: 'typeStr', isDeprecated: true, deprecationReason: 'Use `kind`' },
    ]);
  });

  it('answers the kind beside the deprecated code in the list and the counts', async () => {
    const user = await createAccount(world.t, world.platform);
    await emit(world.t, NotificationType.LotExtended, [user.id], { lot_id: '1', end_time: '2030-01-01T00:00:00Z' });
    await emit(world.t, NotificationType.Overbid, [user.id], { lot_id: '1' });
    const res = await world.t.client.as(user.keypair).graphql(LISTS);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.viewer.notifications.nodes).toEqual([
      { kind: 'OVERBID', type: 6, typeStr: 'overbid' },
      { kind: 'LOT_EXTENDED', type: 30, typeStr: 'lot_extended' },
    ]);
    expect(res.body.data.notificationCounts).toEqual([
      { kind: 'OVERBID', type: 6, typeStr: 'overbid', count: 1 },
      { kind: 'LOT_EXTENDED', type: 30, typeStr: 'lot_extended', count: 1 },
    ]);
  });
});
