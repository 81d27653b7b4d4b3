import { checkLog } from '../../src/cli/tlog-check';
import { logger } from '../../src/core/logger';
import type { TestApp } from '../helpers/app';
import { bidForReceipt } from './receipt.helpers';
import { rotationWorld } from './rotation.helpers';

// A rotation (LOG_KEY_REPLACES) while two instances serve one database (docs/bid-log.md, "The
// log's key"): from the rotation's commit on, the instance started before it appends and signs
// nothing more (its bids are refused before anything is kept, its checkpoints stop, it is not
// ready), and the instance started with the new key answers for the log.
const world = rotationWorld();
const { oldKey, newKey } = world;

const checkpointBy = (t: TestApp) => t.app.services.transparencyLog.checkpointNow({ em: t.orm.em.fork() });
const bidsOf = async (t: TestApp, lotId: string) => (await t.client.graphql(`query($id: ID!) { lot(id: $id) { bids { amount } } }`, { id: lotId })).body.data.lot.bids.map((b: { amount: string }) => b.amount);
const checkpointSigners = async (t: TestApp) => (await t.client.get('/log/checkpoints?from=0')).body.data.map((c: { attributes: { signer: string } }) => c.attributes.signer);

it('stops the instance started before the rotation from appending and signing with the replaced key, keeping nothing of the bid it refuses', async () => {
  const before = world.before();
  const { bidder, lotId } = await world.bidderOnLot();

  const fromBefore = await bidForReceipt(before, bidder, lotId, '1000');
  expect(fromBefore.signer).toBe(oldKey.publicKey());
  expect((await checkpointBy(before))?.signer).toBe(oldKey.publicKey());

  const after = await world.rotate();
  const bid = () => before.client.as(bidder).post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount: '1100' } } });
  const said = jest.spyOn(logger, 'error');
  try {
    // The first bid after the rotation: the round's statement finds the key replaced, and nothing of it commits.
    const refused = await bid();
    expect({ status: refused.status, code: refused.body?.errors?.[0]?.code }).toEqual({ status: 503, code: 'log_key_replaced' });
    expect(refused.body.errors[0].detail).toContain(newKey.publicKey());
    // Later ones are refused by the instance itself; its checkpoint job signs nothing more.
    const again = await bid();
    expect(again.status).toBe(503);
    expect(await checkpointBy(before)).toBeNull();
    const ready = await before.client.get('/readyz');
    expect({ status: ready.status, body: ready.body }).toEqual({ status: 503, body: { status: 'bid log key replaced: restart with the log key' } });
    expect(said.mock.calls.filter(([, message]) => typeof message === 'string' && message.includes(`replaced by ${newKey.publicKey()}`))).toHaveLength(1);
  } finally {
    said.mockRestore();
  }
  expect(await bidsOf(after, lotId)).toEqual(['1000.00']);

  const fromAfter = await bidForReceipt(after, bidder, lotId, '1100');
  expect(fromAfter.signer).toBe(newKey.publicKey());
  expect((await checkpointBy(after))?.signer).toBe(newKey.publicKey());
  expect((await after.client.get('/readyz')).status).toBe(200);
  // Every checkpoint since the rotation is signed by the new key.
  expect(await checkpointSigners(after)).toEqual([oldKey.publicKey(), newKey.publicKey()]);

  const keys = (await after.client.get('/log/keys')).body.data.map((k: { attributes: { public_key: string; until: string | null } }) => [k.attributes.public_key, k.attributes.until === null]);
  expect(keys).toEqual([
    [oldKey.publicKey(), false],
    [newKey.publicKey(), true],
  ]);
  // The receipt signed before the rotation verifies for whoever trusts the key history, not for a verifier that knows the new key alone.
  expect((await checkLog(after.baseUrl, { logKeys: [oldKey.publicKey(), newKey.publicKey()], receipt: fromBefore })).problems).toEqual([]);
  expect((await checkLog(after.baseUrl, { logKeys: [newKey.publicKey()], receipt: fromBefore })).problems).toEqual([`the receipt is not signed by the log key ${newKey.publicKey()}`]);
  expect((await checkLog(after.baseUrl, { logKeys: [oldKey.publicKey(), newKey.publicKey()], receipt: fromAfter })).problems).toEqual([]);
});
