import { setTimeout as sleep } from 'node:timers/promises';
import { holdKeyPeriod, KeyRecordingBlocked, recordLogKey } from '../../src/modules/bidlog';
import { rowsOf } from '../../src/db/query';
import { rotationWorld, waitingForPeriod } from './rotation.helpers';

// docs/bid-log.md, "A key's period": a rotation waits for the appends under way, and every append
// of every instance queues behind it meanwhile. An append whose transaction is stuck (its commit
// unanswered, the server stalled) must not stall the marketplace's bids for as long as it lasts:
// the rotation gives up after its wait, keeps nothing, and the bids it held back go on.
const world = rotationWorld();
const { oldKey, newKey } = world;
const WAIT_S = 1;

it('gives up after its wait on an append that does not end, keeps the old key, and holds bids back no longer', async () => {
  const before = world.before();
  const db = () => before.orm.em.fork().getConnection();
  const { bidder, lotId } = await world.bidderOnLot();

  const stuck = before.orm.em.fork();
  await stuck.begin();
  await rowsOf(stuck, holdKeyPeriod);
  try {
    const rotating = recordLogKey(before.orm.em.fork(), newKey.publicKey(), oldKey.publicKey(), WAIT_S).then(
      () => 'rotated',
      (err: unknown) => (err instanceof KeyRecordingBlocked ? 'gave up' : `failed: ${String(err)}`),
    );
    for (let i = 0; i < 250 && (await waitingForPeriod(before)) < 1; i++) await sleep(20);
    // A bid now queues behind the rotation's request for the period.
    const bid = before.client.as(bidder).post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount: '1000' } } });
    expect(await Promise.race([rotating, sleep(WAIT_S * 1000 + 5000, 'still waiting')])).toBe('gave up');
    const answered = await Promise.race([bid, sleep(5000, null)]);
    expect(answered?.status).toBe(204);
    expect((await db().execute(`select public_key from tlog_keys where until is null`))[0].public_key).toBe(oldKey.publicKey());
    expect(await db().execute(`select count(*)::int as n from tlog_leaves where kind = 'key'`)).toEqual([{ n: 0 }]);
  } finally {
    await stuck.commit();
  }
  // Once nothing holds the period, the same rotation goes through.
  expect(await recordLogKey(before.orm.em.fork(), newKey.publicKey(), oldKey.publicKey(), WAIT_S)).toBe(newKey.publicKey());
});
