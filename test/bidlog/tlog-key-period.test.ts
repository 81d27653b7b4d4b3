import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { checkLog } from '../../src/cli/tlog-check';
import { recordLogKey } from '../../src/modules/bidlog';
import { checkpointBody, signNote } from '../../src/modules/bidlog/tlog.note';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createAccount, createPlatform } from '../helpers/factories';
import { createLot } from '../helpers/lots';
import { FREE_LOT, join } from '../trading/trading.helpers';
import { bidForReceipt } from './receipt.helpers';

// docs/bid-log.md, "The log's key": whoever still holds a rotated-away seed can sign a checkpoint
// that extends the log. A verifier that saw the new key sign refuses a later checkpoint signed
// only by the key it saw replaced, though it trusts both keys for what each signed in its time.
const master = Keypair.random().secret();
const oldKey = Keypair.random();
const newKey = Keypair.random();
const logKeys = [oldKey.publicKey(), newKey.publicKey()];
let db: TestDatabase;
let before: TestApp;
let after: TestApp;

beforeAll(async () => {
  db = await createTestDatabase();
  before = await startTestApp({ MASTER_SEED: master, LOG_SIGNING_SEED: oldKey.secret() }, db);
  await recordLogKey(before.orm.em.fork(), oldKey.publicKey(), null);
});

afterAll(async () => {
  await before.close();
  await after?.close();
  await db.drop();
});

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

it('refuses a checkpoint past the last one seen when only a key it saw replaced signed it', async () => {
  const statePath = path.join(mkdtempSync(path.join(tmpdir(), 'tlog-key-period-')), 'state.json');
  const platform = await createPlatform(before);
  const bidder = await createAccount(before, platform);
  const lot = await createLot(before, platform, FREE_LOT);
  await join(before, bidder.keypair, lot.id);

  await bidForReceipt(before, bidder.keypair, lot.id, '1000');
  expect((await checkpointBy(before))?.signer).toBe(oldKey.publicKey());
  expect((await checkLog(before.baseUrl, { logKeys, statePath })).problems).toEqual([]);

  after = await startTestApp({ MASTER_SEED: master, LOG_SIGNING_SEED: newKey.secret() }, db);
  expect(await recordLogKey(after.orm.em.fork(), newKey.publicKey(), oldKey.publicKey())).toBe(newKey.publicKey());
  await bidForReceipt(after, bidder.keypair, lot.id, '1100');
  const seen = await checkpointBy(after);
  expect(seen?.signer).toBe(newKey.publicKey());
  expect((await checkLog(after.baseUrl, { logKeys, statePath })).problems).toEqual([]);

  await bidForReceipt(after, bidder.keypair, lot.id, '1200');
  expect((await checkpointBy(after))?.signer).toBe(newKey.publicKey());
  const forgedSize = await resignLatest(after, oldKey);
  expect(forgedSize).toBeGreaterThan(Number(seen?.size));

  const caught = await checkLog(after.baseUrl, { logKeys, statePath });
  expect(caught.problems).toEqual([
    `the checkpoint of size ${forgedSize} is signed only by ${oldKey.publicKey()}, replaced before ${newKey.publicKey()} signed the checkpoint of size ${seen?.size} seen here: a replaced key signs nothing later`,
  ]);
  // Refused, it is not kept as seen: signed again by the current key, the same checkpoint verifies.
  await resignLatest(after, newKey);
  expect((await checkLog(after.baseUrl, { logKeys, statePath })).problems).toEqual([]);
});
