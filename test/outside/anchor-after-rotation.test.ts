import { Keypair } from '@stellar/stellar-sdk';
import { recordLogKey } from '../../src/modules/bidlog';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createAccount, createPlatform } from '../helpers/factories';
import { createLot } from '../helpers/lots';
import { FREE_LOT, join } from '../trading/trading.helpers';
import { bidForReceipt } from '../bidlog/receipt.helpers';

/**
 * After a rotation (LOG_KEY_REPLACES) "the instance appends and signs nothing more"
 * (docs/bid-log.md, "The log's key"), yet its anchor job went on: it signed ledger transactions
 * with the replaced key and wrote the new key's checkpoints on the old key's account, so a key
 * whose period had closed vouched for checkpoints it never signed.
 */
const master = Keypair.random().secret();
const oldKey = Keypair.random();
const newKey = Keypair.random();
let db: TestDatabase;
let before: TestApp;
let after: TestApp | undefined;

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

const anchorBy = (t: TestApp) => t.app.services.logAnchors.anchorPending(t.orm.em.fork());
const anchorAccounts = async (t: TestApp) =>
  (await t.client.get('/log/checkpoints?from=0')).body.data.map((c: { attributes: { signer: string; anchor: { account: string } | null } }) => [c.attributes.signer, c.attributes.anchor?.account ?? null]);

it('anchors nothing with the replaced key, and leaves every checkpoint to the instance of the new one', async () => {
  const platform = await createPlatform(before);
  const bidder = await createAccount(before, platform);
  const lot = await createLot(before, platform, FREE_LOT);
  await join(before, bidder.keypair, lot.id);
  await bidForReceipt(before, bidder.keypair, lot.id, '1000');
  await before.app.services.transparencyLog.checkpointNow({ em: before.orm.em.fork() });

  after = await startTestApp({ MASTER_SEED: master, LOG_SIGNING_SEED: newKey.secret() }, db);
  expect(await recordLogKey(after.orm.em.fork(), newKey.publicKey(), oldKey.publicKey())).toBe(newKey.publicKey());
  await bidForReceipt(after, bidder.keypair, lot.id, '1100');
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
