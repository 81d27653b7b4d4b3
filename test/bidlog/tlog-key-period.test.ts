import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Keypair } from '@stellar/stellar-sdk';
import { checkLog } from '../../src/cli/tlog-check';
import { checkpointBody, signNote } from '../../src/modules/bidlog/tlog.note';
import type { TestApp } from '../helpers/app';
import { startFrontProxy, type FrontProxy } from '../helpers/front-proxy';
import { bidForReceipt } from './receipt.helpers';
import { rotationWorld } from './rotation.helpers';

// docs/bid-log.md, "The log's key": whoever still holds a rotated-away seed can sign a checkpoint
// that extends the log. A verifier that saw the new key sign refuses a later checkpoint signed
// only by the key it saw replaced, though it trusts both keys for what each signed in its time.
const world = rotationWorld();
const { oldKey, newKey } = world;
const logKeys = [oldKey.publicKey(), newKey.publicKey()];

const checkpointBy = (t: TestApp) => t.app.services.transparencyLog.checkpointNow({ em: t.orm.em.fork() });

/** The latest checkpoint's note replaced by the same body signed with `key`, as its holder would serve it. */
async function resignLatest(t: TestApp, key: Keypair): Promise<number> {
  const [{ size, root, note }] = await t.orm.em
    .getConnection()
    .execute<{ size: string; root: string; note: string }[]>(`select size::text, encode(root, 'base64') as root, note from tlog_checkpoints order by size desc limit 1`, [], 'all');
  const origin = note.split('\n')[0];
  const forged = signNote(checkpointBody({ origin, size: Number(size), root: Buffer.from(root, 'base64') }), origin, key);
  await t.orm.em.getConnection().execute(`update tlog_checkpoints set note = ?, signer = ? where size = ?`, [forged, key.publicKey(), size]);
  return Number(size);
}

// The service at one URL before and after its rotation, as its verifiers reach it.
let serving: TestApp;
let front: FrontProxy;
beforeAll(async () => {
  front = await startFrontProxy(() => serving.port);
});
afterAll(() => front.close());

it('refuses a checkpoint past the last one seen when only a key it saw replaced signed it', async () => {
  const statePath = path.join(mkdtempSync(path.join(tmpdir(), 'tlog-key-period-')), 'state.json');
  const before = (serving = world.before());
  const { bidder, lotId } = await world.bidderOnLot();
  await bidForReceipt(before, bidder, lotId, '1000');
  expect((await checkpointBy(before))?.signer).toBe(oldKey.publicKey());
  expect((await checkLog(front.url, { logKeys, statePath })).problems).toEqual([]);

  const after = (serving = await world.rotate());
  await bidForReceipt(after, bidder, lotId, '1100');
  const seen = await checkpointBy(after);
  expect(seen?.signer).toBe(newKey.publicKey());
  expect((await checkLog(front.url, { logKeys, statePath })).problems).toEqual([]);

  await bidForReceipt(after, bidder, lotId, '1200');
  expect((await checkpointBy(after))?.signer).toBe(newKey.publicKey());
  const forgedSize = await resignLatest(after, oldKey);
  expect(forgedSize).toBeGreaterThan(Number(seen?.size));

  const caught = await checkLog(front.url, { logKeys, statePath });
  expect(caught.problems).toEqual([
    `the checkpoint of size ${forgedSize} is signed only by ${oldKey.publicKey()}, replaced before ${newKey.publicKey()} signed the checkpoint of size ${seen?.size} seen here: a replaced key signs nothing later`,
  ]);
  // Refused, it is not kept as seen: signed again by the current key, the same checkpoint verifies.
  await resignLatest(after, newKey);
  expect((await checkLog(front.url, { logKeys, statePath })).problems).toEqual([]);
});
