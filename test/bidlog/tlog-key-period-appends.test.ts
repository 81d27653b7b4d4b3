import { setTimeout as sleep } from 'node:timers/promises';
import { appendCtes, holdKeyPeriod } from '../../src/modules/bidlog';
import { leafOf } from '../../src/modules/bidlog/tlog.leaves';
import { rowsOf } from '../../src/db/query';
import { sql } from '../../src/db/sql';
import { rotationWorld, waitingForPeriod } from './rotation.helpers';

// docs/bid-log.md, "A key's period": a rotation waits for the appends under way and numbers their
// leaves before its own, and an append that waited for the rotation finds its key replaced. Without
// that, a round on an old instance that began just before the rotation committed would commit its
// leaves after the key's leaf, and its receipt, signed by the old key, would fail verification.
const world = rotationWorld();
const { oldKey, newKey } = world;

it('numbers the leaves of an append under way before the rotation, and refuses a bid that waited for it', async () => {
  const before = world.before();
  const db = () => before.orm.em.fork().getConnection();
  const { bidder, lotId } = await world.bidderOnLot();

  // A round of the old instance under way: it holds the key's period and has appended its leaf,
  // but not committed, when the rotation starts. The rotation waits for it.
  const inFlight = before.orm.em.fork();
  await inFlight.begin();
  await rowsOf(inFlight, holdKeyPeriod);
  const leaf = leafOf({ v: 'bid_tlog/1', kind: 'lapse', lot_id: lotId, lot_state: 'pending', highest_bid: null, winner_id: null, bids: 0, at: new Date().toISOString(), backfilled_at: null });
  await rowsOf(inFlight, sql`with ${appendCtes(lotId, [{ ...leaf, bidId: null, kind: 'lapse' }], oldKey.publicKey())} select seq from tlog_appended`);
  const rotating = world.rotate();
  for (let i = 0; i < 250 && (await waitingForPeriod(before)) < 1; i++) await sleep(20);

  // A bid on the old instance now queues behind the rotation.
  const bid = before.client.as(bidder).post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount: '1000' } } });
  for (let i = 0; i < 250 && (await waitingForPeriod(before)) < 2; i++) await sleep(20);
  await inFlight.commit();
  await rotating;

  const refused = await bid;
  expect({ status: refused.status, code: refused.body?.errors?.[0]?.code }).toEqual({ status: 503, code: 'log_key_replaced' });
  const leaves = await db().execute<{ kind: string; idx: number; hash: string }[]>(`select kind, idx::int, encode(hash, 'hex') as hash from tlog_leaves order by idx`, [], 'all');
  const [{ to_size }] = await db().execute<{ to_size: number }[]>(`select to_size::int from tlog_keys where public_key = ?`, [oldKey.publicKey()], 'all');
  const keyLeaf = leaves.find((l) => l.kind === 'key') as { idx: number };
  // The leaf appended under way is in the old key's period; the refused bid left none.
  expect(leaves.map((l) => l.kind)).toEqual(['lapse', 'key']);
  expect({ appended: leaves[0].hash, before: leaves[0].idx < keyLeaf.idx, to_size }).toEqual({ appended: leaf.hash.toString('hex'), before: true, to_size: keyLeaf.idx });
  expect((await db().execute(`select public_key from tlog_keys where until is null`))[0].public_key).toBe(newKey.publicKey());
});
