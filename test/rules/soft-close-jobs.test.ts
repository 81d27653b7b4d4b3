import type { Keypair } from '@stellar/stellar-sdk';
import { Lot } from '../../src/modules/lots/lots.entity';
import { NotificationType as N } from '../../src/modules/notifications/notifications.entity';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { startTwoInstances, waitFor, type TwoInstances } from '../jobs/jobs.helpers';
import { bid, seat, setRules } from './rules.helpers';

let s: TwoInstances;
let platform: Keypair;
let user: CreatedAccount;

beforeAll(async () => {
  s = await startTwoInstances();
  platform = await createPlatform(s.a);
  user = await createAccount(s.a, platform);
  await setRules(s.a, platform, { extend_window: 10, extend_by: 6 });
}, 60_000);
afterAll(() => s?.close());

it("runs the lot's end job at the end soft close moved it to, not at the end it had", async () => {
  const created = await createLot(s.a, platform, { ...ENG_LOT, duration: 60 });
  await seat(s.a, created.id, [user.id]);
  // The shortest duration is a minute: the lot is brought to its last seconds, with its jobs, as if it had been created long ago.
  const end = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3000);
  await s.a.orm.em.fork().nativeUpdate(Lot, { id: created.id }, { endTime: end });
  await s.a.app.services.lotClock.lotTimesSet([{ id: created.id, lotType: created.lotType, endTime: end }]);
  expect((await bid(s.b, user.keypair, created.id, { amount: '1000' })).status).toBe(204);
  const moved = (await s.a.orm.em.fork().findOneOrFail(Lot, { id: created.id })).endTime;
  expect(moved.getTime()).toBeGreaterThanOrEqual(end.getTime() + 3000);

  const finished = async () =>
    s.a.orm.em.fork().getConnection().execute<{ created_at: Date }[]>(`select created_at from notifications where type = ? and meta->>'lot_id' = ?`, [N.AuctionFinished, created.id]);
  await waitFor('the end of the old end to pass', async () => Date.now() > end.getTime() + 1500);
  expect(await finished()).toEqual([]);
  await waitFor('auction_finished', async () => (await finished()).length > 0, 20_000);
  const rows = await finished();
  expect(rows).toHaveLength(1); // to the platform, its only staff
  expect(new Date(rows[0].created_at).getTime()).toBeGreaterThanOrEqual(moved.getTime());
}, 40_000);
