import PgBoss from 'pg-boss';
import { LOT_QUEUES, type LotJobData } from '../../src/modules/lots';
import { Lot } from '../../src/modules/lots/lots.entity';
import { NotificationType as N } from '../../src/modules/notifications/notifications.entity';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, DIRECT_SALE, ENG_LOT } from '../helpers/lots';
import { chooseWinner, closeLot, FREE_LOT, join, participantOf, pay, putWinnerDetails } from '../trading/trading.helpers';
import { completedJobs, expected, notificationsOf, openJobs, star, startTwoInstances, waitFor, type TwoInstances } from './jobs.helpers';
import type { Keypair } from '@stellar/stellar-sdk';

// Offsets in seconds: a lot of the shortest duration (60 s) gets its finishing notices 6 s
// after its creation.
const FINISHING = 54;
const REMINDER = 2;

let s: TwoInstances;
let platform: Keypair;
let admin: CreatedAccount;
let users: CreatedAccount[];
/** A client of the database outside both instances, to add copies of their jobs. */
let outsider: PgBoss;

beforeAll(async () => {
  s = await startTwoInstances({ FINISHING_NOTICE_SECONDS: String(FINISHING), UNPAID_INVOICE_REMINDER_SECONDS: String(REMINDER) });
  platform = await createPlatform(s.a);
  admin = await createAccount(s.a, platform, { type: 'admin' });
  users = [];
  for (let i = 0; i < 4; i++) users.push(await createAccount(s.a, platform));
  outsider = new PgBoss({ connectionString: s.db.url, schema: 'pgboss', supervise: false, schedule: false, migrate: false, max: 1 });
  await outsider.start();
}, 60_000);
afterAll(async () => {
  await outsider?.stop({ graceful: false });
  await s?.close();
});

const staff = () => [platform.publicKey(), admin.id];
const typeStrOf = async (recipient: CreatedAccount, type: number) => {
  const res = await s.b.client.as(recipient.keypair).get('/notifications');
  return res.body.data.filter((n: any) => n.attributes.type === type).map((n: any) => n.attributes);
};

/** Copies of a lot's job with no singleton key, as a retry or a second scheduler would add them. */
async function duplicate(queue: string, data: LotJobData | { lotId: string }, copies = 2): Promise<void> {
  for (let i = 0; i < copies; i++) await outsider.send(queue, data);
  await waitFor(`the copies in ${queue} to run`, async () => (await openJobs(s.a, queue)) === 0);
}

describe('time-based notifications, two instances working the queue', () => {
  it('fires 1, 3 and 24 before an eng lot ends, 2 before a direct sale ends, and 26 at the end, once each', async () => {
    const [u1, u2, u3, u4] = users;
    const eng = await createLot(s.a, platform, { ...ENG_LOT, duration: 60 });
    const sale = await createLot(s.b, platform, { ...DIRECT_SALE, duration: 60 });
    await pay(s.a, platform, await join(s.a, u1.keypair, eng.id)); // pending
    await join(s.b, u2.keypair, eng.id); // stays deposit_pending
    await join(s.a, u4.keypair, eng.id);
    expect((await s.a.client.as(platform).delete(`/v2/lots/${eng.id}/participants/${u4.id}`)).status).toBe(204); // rejected
    await star(s.a, u3.keypair, eng.id);
    await star(s.b, u4.keypair, eng.id);
    await star(s.a, u3.keypair, sale.id);
    expect(Date.now()).toBeLessThan(eng.endTime.getTime() - FINISHING * 1000); // the setup beat the notices

    const before = [
      { type: N.RegisteredFinishingIn3h, recipient: u1.id, meta: {} },
      { type: N.RegisteredFinishingIn3h, recipient: u2.id, meta: {} },
      { type: N.WatchlistDirectSaleFinishingIn3h, recipient: u3.id, meta: {} },
      { type: N.WatchlistAuctionFinishingIn3h, recipient: u3.id, meta: {} },
      ...staff().map((recipient) => ({ type: N.ReminderUnpaidDeposit3h, recipient, meta: { lot_id: eng.id, account_id: u2.id } })),
    ];
    const finishingTypes = [N.RegisteredFinishingIn3h, N.WatchlistDirectSaleFinishingIn3h, N.WatchlistAuctionFinishingIn3h, N.ReminderUnpaidDeposit3h];
    await waitFor('the finishing notices', async () => (await notificationsOf(s.a, finishingTypes)).length >= before.length);
    expect(Date.now()).toBeLessThan(eng.endTime.getTime());
    expect(await notificationsOf(s.a, finishingTypes)).toEqual(expected(before));
    expect(await typeStrOf(u3, N.WatchlistAuctionFinishingIn3h)).toEqual([expect.objectContaining({ type_str: 'watchlist_auction_finishing_in_3h', meta: {} })]);
    expect(await typeStrOf(u3, N.WatchlistDirectSaleFinishingIn3h)).toEqual([expect.objectContaining({ type_str: 'watchlist_direct_sale_finishing_in_3h', meta: {} })]);
    expect(await typeStrOf(u1, N.RegisteredFinishingIn3h)).toEqual([expect.objectContaining({ type_str: 'registered_finishing_in_3h', meta: {} })]);

    // A retried or second copy of the job finds every recipient claimed.
    await duplicate(LOT_QUEUES.finishing, { lotId: eng.id, endTime: eng.endTime.toISOString() });
    await duplicate(LOT_QUEUES.finishing, { lotId: sale.id, endTime: sale.endTime.toISOString() });
    expect(await notificationsOf(s.a, finishingTypes)).toEqual(expected(before));

    // Rather than wait out the minute: the end moves closer, through the clock (lots' times cannot
    // change through the API); the new end's finishing job comes at once and finds all claimed.
    const endTime = new Date(Date.now() + 2000);
    await s.a.orm.em.fork().nativeUpdate(Lot, { id: eng.id }, { endTime });
    await s.b.app.services.lotClock.lotTimesSet([{ ...eng, endTime }]);
    let changes = 0;
    await s.a.app.services.live.onLotChanged(eng.id, () => (changes += 1));
    await s.b.app.services.live.onLotChanged(eng.id, () => (changes += 1));
    const finished = staff().map((recipient) => ({ type: N.AuctionFinished, recipient, meta: { lot_id: eng.id } }));
    await waitFor('auction_finished', async () => (await notificationsOf(s.a, [N.AuctionFinished])).length >= finished.length);
    expect(Date.now()).toBeGreaterThanOrEqual(endTime.getTime());
    await waitFor('the lot change', async () => changes >= 1);
    await duplicate(LOT_QUEUES.ended, { lotId: eng.id, endTime: endTime.toISOString() });
    expect(await notificationsOf(s.a, finishingTypes)).toEqual(expected(before));
    expect(await notificationsOf(s.a, [N.AuctionFinished])).toEqual(expected(finished));
    expect(changes).toBe(1);
    const [fromAdmin] = await typeStrOf(admin, N.AuctionFinished);
    expect(fromAdmin).toEqual(expect.objectContaining({ type: 26, type_str: 'auction_finished', meta: { lot_id: eng.id } }));
    // The direct sale has no auction to finish; the lot stays pending.
    expect((await notificationsOf(s.a, [N.AuctionFinished])).some((n) => n.meta.lot_id === sale.id)).toBe(false);
    expect((await s.a.orm.em.fork().findOneOrFail(Lot, { id: eng.id })).lotState).toBe(1);
  }, 60_000);

  it('reminds the staff of an unpaid invoice once, after a lot is closed sold; not when the invoice is paid', async () => {
    const [u1] = users;
    const unpaid = await createLot(s.a, platform, FREE_LOT);
    const paid = await createLot(s.a, platform, FREE_LOT);
    for (const lot of [unpaid, paid]) {
      await join(s.a, u1.keypair, lot.id);
      expect((await chooseWinner(s.a, platform, lot.id, await participantOf(s.a, lot.id, u1.id))).status).toBe(200);
    }
    expect((await putWinnerDetails(s.b, platform, paid.id, { invoice_paid: true })).status).toBe(200);
    const closedAt = Date.now();
    for (const lot of [unpaid, paid]) expect((await closeLot(s.a, platform, lot.id, 'sold')).status).toBe(200);

    const reminders = staff().map((recipient) => ({ type: N.ReminderUnpaidInvoice, recipient, meta: { lot_id: unpaid.id } }));
    await waitFor('the reminders to run', async () => (await completedJobs(s.a, LOT_QUEUES.invoice)) >= 2 && (await openJobs(s.a, LOT_QUEUES.invoice)) === 0);
    expect(Date.now() - closedAt).toBeGreaterThanOrEqual(REMINDER * 1000);
    await duplicate(LOT_QUEUES.invoice, { lotId: unpaid.id });
    expect(await notificationsOf(s.a, [N.ReminderUnpaidInvoice])).toEqual(expected(reminders));
    expect(await typeStrOf(admin, N.ReminderUnpaidInvoice)).toEqual([expect.objectContaining({ type_str: 'reminder_unpaid_invoice', meta: { lot_id: unpaid.id } })]);
  }, 30_000);

  it("moves a lot's notices with its end: the jobs of the old end do nothing", async () => {
    const [, , , u4] = users;
    const lot = await createLot(s.a, platform, FREE_LOT);
    await join(s.a, u4.keypair, lot.id);
    const oldKey = `${lot.id}@${lot.endTime.getTime()}`;
    const [scheduled] = await s.a.orm.em
      .fork()
      .getConnection()
      .execute<{ start_after: Date }[]>(`select start_after from pgboss.job where name = ? and singleton_key = ?`, [LOT_QUEUES.finishing, oldKey]);
    expect(new Date(scheduled.start_after).getTime()).toBe(lot.endTime.getTime() - FINISHING * 1000);

    // Lots' times cannot change through the API; a change goes through the clock as creation does.
    const endTime = new Date(Date.now() + 3000);
    await s.a.orm.em.fork().nativeUpdate(Lot, { id: lot.id }, { endTime });
    await s.b.app.services.lotClock.lotTimesSet([{ ...lot, endTime }]);
    const notices = [N.RegisteredFinishingIn3h, N.AuctionFinished];
    const mine = async () => (await notificationsOf(s.a, notices)).filter((n) => n.recipient === u4.id || n.meta.lot_id === lot.id);
    await waitFor('the notices of the new end', async () => (await mine()).length >= 3);
    await s.a.orm.em.fork().getConnection().execute(`update pgboss.job set start_after = now() where singleton_key = ?`, [oldKey]);
    await waitFor('the jobs of the old end to run', async () => (await openJobs(s.a, LOT_QUEUES.finishing)) + (await openJobs(s.a, LOT_QUEUES.ended)) === 0);
    expect(await mine()).toEqual(
      expected([
        { type: N.RegisteredFinishingIn3h, recipient: u4.id, meta: {} },
        ...staff().map((recipient) => ({ type: N.AuctionFinished, recipient, meta: { lot_id: lot.id } })),
      ]),
    );
  }, 30_000);
});
