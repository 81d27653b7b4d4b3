import { Keypair } from '@stellar/stellar-sdk';
import { checkLog } from '../../src/cli/tlog-check';
import { recordLogKey } from '../../src/modules/bidlog';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createAccount, createPlatform } from '../helpers/factories';
import { createLot } from '../helpers/lots';
import { FREE_LOT, join } from '../trading/trading.helpers';
import { bidForReceipt } from './receipt.helpers';

// A rotation (LOG_KEY_REPLACES) while two instances serve one database (docs/bid-log.md, "The
// log's key"): the instance started with the new key signs with it; the other, started before,
// keeps signing receipts and checkpoints with the replaced key until it restarts.
const master = Keypair.random().secret();
const oldKey = Keypair.random();
const newKey = Keypair.random();
let db: TestDatabase;
let before: TestApp;
let after: TestApp;

beforeAll(async () => {
  db = await createTestDatabase();
  before = await startTestApp({ MASTER_SEED: master, LOG_SIGNING_SEED: oldKey.secret() }, db);
  await recordLogKey(before.orm.em.fork(), oldKey.publicKey(), null);
  after = await startTestApp({ MASTER_SEED: master, LOG_SIGNING_SEED: newKey.secret() }, db);
  await recordLogKey(after.orm.em.fork(), newKey.publicKey(), oldKey.publicKey());
});

afterAll(async () => {
  await before.close();
  await after.close();
  await db.drop();
});

const checkpointBy = (t: TestApp) => t.app.services.transparencyLog.checkpointNow({ em: t.orm.em.fork() });

it('leaves the instance started before the rotation signing with the replaced key, which verifies only for a verifier trusting the whole history', async () => {
  const platform = await createPlatform(before);
  const bidder = await createAccount(before, platform);
  const lot = await createLot(before, platform, FREE_LOT);
  await join(before, bidder.keypair, lot.id);

  const fromBefore = await bidForReceipt(before, bidder.keypair, lot.id, '1000');
  expect(fromBefore.signer).toBe(oldKey.publicKey());
  expect((await checkpointBy(before))?.signer).toBe(oldKey.publicKey());

  const fromAfter = await bidForReceipt(after, bidder.keypair, lot.id, '1100');
  expect(fromAfter.signer).toBe(newKey.publicKey());
  expect((await checkpointBy(after))?.signer).toBe(newKey.publicKey());

  const keys = (await after.client.get('/log/keys')).body.data.map((k: { attributes: { public_key: string; until: string | null } }) => [k.attributes.public_key, k.attributes.until === null]);
  expect(keys).toEqual([
    [oldKey.publicKey(), false],
    [newKey.publicKey(), true],
  ]);
  // Signed after its key's period closed, the receipt still verifies for whoever trusts the history.
  expect((await checkLog(after.baseUrl, { logKeys: [oldKey.publicKey(), newKey.publicKey()], receipt: fromBefore })).problems).toEqual([]);
  expect((await checkLog(after.baseUrl, { logKeys: [newKey.publicKey()], receipt: fromBefore })).problems).toEqual([`the receipt is not signed by the log key ${newKey.publicKey()}`]);
});
