import type { TestApp } from '../helpers/app';
import { bidForReceipt } from '../bidlog/receipt.helpers';
import { rotationWorld } from '../bidlog/rotation.helpers';

/**
 * After a rotation (LOG_KEY_REPLACES) "the instance appends and signs nothing more"
 * (docs/bid-log.md, "The log's key"), yet its anchor job went on: it signed ledger transactions
 * with the replaced key and wrote the new key's checkpoints on the old key's account, so a key
 * whose period had closed vouched for checkpoints it never signed.
 */
const world = rotationWorld();
const { oldKey, newKey } = world;

const anchorBy = (t: TestApp) => t.app.services.logAnchors.anchorPending(t.orm.em.fork());
const anchorAccounts = async (t: TestApp) =>
  (await t.client.get('/log/checkpoints?from=0')).body.data.map((c: { attributes: { signer: string; anchor: { account: string } | null } }) => [c.attributes.signer, c.attributes.anchor?.account ?? null]);

it('anchors nothing with the replaced key, and leaves every checkpoint to the instance of the new one', async () => {
  const before = world.before();
  const { bidder, lotId } = await world.bidderOnLot();
  await bidForReceipt(before, bidder, lotId, '1000');
  await before.app.services.transparencyLog.checkpointNow({ em: before.orm.em.fork() });

  const after = await world.rotate();
  await bidForReceipt(after, bidder, lotId, '1100');
  await after.app.services.transparencyLog.checkpointNow({ em: after.orm.em.fork() });

  await expect(anchorBy(before)).rejects.toMatchObject({ code: 'log_key_replaced' });
  expect(await anchorAccounts(after)).toEqual([
    [oldKey.publicKey(), null],
    [newKey.publicKey(), null],
  ]);

  expect(await anchorBy(after)).toBe(2);
  expect(await anchorAccounts(after)).toEqual([
    [oldKey.publicKey(), newKey.publicKey()],
    [newKey.publicKey(), newKey.publicKey()],
  ]);
});
