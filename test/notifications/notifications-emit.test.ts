import { inTransaction } from '../../src/core/transaction';
import {
  Notification,
  NOTIFICATION_TYPES,
  NOTIFICATION_TYPE_CODES,
  NotificationType,
  REPORTED_TYPES,
} from '../../src/modules/notifications/notifications.entity';
import { staffOf } from '../../src/modules/notifications/notifications.recipients';
import { appWithPlatform } from '../helpers/world';
import { createAccount, createPlatform } from '../helpers/factories';
import { emit, idsOf, listen, trust } from './notifications.helpers';

const world = appWithPlatform();

const rowsOf = (recipient: string) => world.t.orm.em.fork().find(Notification, { recipient }, { orderBy: { id: 'asc' } });

describe('the notification type table', () => {
  it('has the 29 types of the specification, lot_extended (30, docs/auction-rules.md), saved_search_matched (31, docs/saved-searches.md), reserve_not_met and lot_lapsed (32, 33), second_chance_offered and second_chance_answered (34, 35, docs/auction-rules.md), and 9–14, 22, 23, 27–29 as the reported ones', () => {
    expect(NOTIFICATION_TYPE_CODES).toEqual(Array.from({ length: 35 }, (_, i) => i + 1));
    expect(REPORTED_TYPES).toEqual([9, 10, 11, 12, 13, 14, 22, 23, 27, 28, 29]);
    expect(NOTIFICATION_TYPES[NotificationType.RegisteredFinishingIn3h].name).toBe('registered_finishing_in_3h');
    expect(NOTIFICATION_TYPES[NotificationType.HistoryReportForRegistered].name).toBe('history_report_for_registered');
    expect(NOTIFICATION_TYPES[NotificationType.ReminderUnpaidDeposit3h].name).toBe('reminder_unpaid_deposit_3h');
    expect(NOTIFICATION_TYPES[NotificationType.FinancingRejected].name).toBe('financing_rejected');
    expect(new Set(Object.values(NOTIFICATION_TYPES).map((i) => i.name)).size).toBe(35);
  });
});

describe('NotificationsService.emit', () => {
  it('creates one row per distinct recipient and announces each once, only after the commit', async () => {
    const a = await createAccount(world.t, world.platform);
    const b = await createAccount(world.t, world.platform);
    const onA = listen(world.t, a.id);
    const onB = listen(world.t, b.id);
    let heardBeforeCommit = -1;
    const created = await inTransaction({ em: world.t.orm.em.fork() }, async (em, scope) => {
      const rows = await world.t.app.services.notifications.emit(em, scope, NotificationType.Overbid, [a.id, b.id, a.id], { lot_id: '42' });
      heardBeforeCommit = onA.heard.length + onB.heard.length;
      return rows;
    });
    onA.stop();
    onB.stop();

    expect(heardBeforeCommit).toBe(0);
    expect(created).toHaveLength(2);
    expect(onA.heard).toHaveLength(1);
    expect(onB.heard).toHaveLength(1);
    const [row] = await rowsOf(a.id);
    expect(onA.heard[0]).toEqual({ id: row.id, recipient: a.id, type: 6, typeStr: 'overbid', meta: { lot_id: '42' }, createdAt: row.createdAt });
    expect(row).toMatchObject({ type: NotificationType.Overbid, meta: { lot_id: '42' }, readAt: null });
    expect(await rowsOf(b.id)).toHaveLength(1);
  });

  it('leaves no row and announces nothing when the transaction then fails', async () => {
    const a = await createAccount(world.t, world.platform);
    const onA = listen(world.t, a.id);
    const failing = inTransaction({ em: world.t.orm.em.fork() }, async (em, scope) => {
      await world.t.app.services.notifications.emit(em, scope, NotificationType.Winner, [a.id], { lot_id: '7' });
      throw new Error('the rest of the operation failed');
    });
    await expect(failing).rejects.toThrow('the rest of the operation failed');
    onA.stop();
    expect(onA.heard).toEqual([]);
    expect(await rowsOf(a.id)).toEqual([]);
    const res = await world.t.client.as(a.keypair).get('/notifications');
    expect(res.body.data).toEqual([]);
  });

  it('does nothing for no recipients', async () => {
    const heard: unknown[] = [];
    const stop = world.t.app.services.notifications.bus.subscribeAll((n) => heard.push(n));
    expect(await emit(world.t, NotificationType.AuctionFinished, [])).toEqual([]);
    stop();
    expect(heard).toEqual([]);
  });

  it('stops announcing to a listener once it unsubscribed, and a failing listener does not silence the others', async () => {
    const a = await createAccount(world.t, world.platform);
    const first = listen(world.t, a.id);
    const stopFailing = world.t.app.services.notifications.bus.subscribe(a.id, () => {
      throw new Error('a broken subscriber');
    });
    const second = listen(world.t, a.id);
    await emit(world.t, NotificationType.DepositPending, [a.id]);
    first.stop();
    await emit(world.t, NotificationType.DepositReceived, [a.id], { lot_id: '1' });
    second.stop();
    stopFailing();
    expect(first.heard.map((n) => n.type)).toEqual([4]);
    expect(second.heard.map((n) => n.type)).toEqual([4, 5]);
    const res = await world.t.client.as(a.keypair).get('/notifications?sort=created_at');
    expect(res.body.data.map((n: any) => n.attributes.type)).toEqual([4, 5]);
    expect(idsOf(res.body)).toEqual(second.heard.map((n) => n.id));
  });
});

describe('staffOf', () => {
  it('lists the platform account, its admins and admins trusting it; not users, brokers or other admins', async () => {
    const p = await createPlatform(world.t);
    const other = await createPlatform(world.t);
    const admin = await createAccount(world.t, p, { type: 'admin' });
    const trusting = await createAccount(world.t, other, { type: 'admin' });
    await trust(world.t, trusting.id, p.publicKey());
    await createAccount(world.t, other, { type: 'admin' });
    await createAccount(world.t, p);
    await createAccount(world.t, p, { type: 'broker' });
    const staff = await staffOf(world.t.orm.em.fork(), p.publicKey());
    expect(staff).toEqual([p.publicKey(), admin.id, trusting.id].sort());
  });

  it('is empty for an id that is no platform, and reads inside the transaction it is given', async () => {
    const user = await createAccount(world.t, world.platform);
    expect(await staffOf(world.t.orm.em.fork(), user.id)).toEqual([]);
    const staff = await inTransaction({ em: world.t.orm.em.fork() }, async (em, scope) => {
      const ids = await staffOf(em, world.platform.publicKey());
      await world.t.app.services.notifications.emit(em, scope, NotificationType.CallbackRequested, ids, { lot_id: '3', account_id: user.id });
      return ids;
    });
    expect(staff).toContain(world.platform.publicKey());
    const res = await world.t.client.as(world.platform).get('/counts');
    expect(res.body.data).toContainEqual({ type: 'notifications', id: '19', attributes: { count: 1, type_str: 'callback_requested' } });
  });
});
