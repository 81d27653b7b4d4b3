import { setTimeout as sleep } from 'node:timers/promises';
import type { TestApp } from '../helpers/app';
import { bidForReceipt } from './receipt.helpers';
import { rotationWorld } from './rotation.helpers';

// docs/bid-log.md, "A key's period": the rotation ends the old key's period at the tree's size under
// the tree's row, which a checkpoint takes before it asks whether its key still signs. An instance
// signing a checkpoint while another rotates never signs one past the size the rotation recorded.
const world = rotationWorld();
const { oldKey } = world;

const checkpointBy = (t: TestApp) => t.app.services.transparencyLog.checkpointNow({ em: t.orm.em.fork() });

it('never signs a checkpoint with the replaced key past the size its rotation recorded, however the two race', async () => {
  const before = world.before();
  const db = () => before.orm.em.fork().getConnection();
  const waiting = async () => Number((await db().execute(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`))[0].n);
  const { bidder, lotId } = await world.bidderOnLot();
  await bidForReceipt(before, bidder, lotId, '1000');

  // The tree's row held elsewhere (another instance hashing): the checkpoint and the rotation queue behind it.
  const holder = await before.orm.em.getKnex().transaction();
  await holder.raw('select from tlog_tree for update');
  const signing = checkpointBy(before);
  while ((await waiting()) < 1) await sleep(20);
  let rotated = false;
  const rotating = world.rotate().then((t) => {
    rotated = true;
    return t;
  });
  for (let i = 0; i < 500 && !rotated && (await waiting()) < 2; i++) await sleep(20);
  await holder.commit();
  await Promise.all([signing, rotating]);

  const [{ to_size }] = await db().execute<{ to_size: number }[]>(`select to_size::int from tlog_keys where public_key = ?`, [oldKey.publicKey()], 'all');
  const byOld = (await db().execute<{ size: number }[]>(`select size::int from tlog_checkpoints where signer = ?`, [oldKey.publicKey()], 'all')).map((r) => r.size);
  expect({ byOld, to_size }).toEqual({ byOld: byOld.filter((s: number) => s <= to_size), to_size: 1 });
});
