import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Keypair } from '@stellar/stellar-sdk';
import { checkLog } from '../../src/cli/tlog-check';
import type { Receipt } from '../../src/modules/bidlog';
import { checkpointBody, signNote } from '../../src/modules/bidlog/tlog.note';
import { receiptMessage } from '../../src/modules/bidlog/tlog.receipt';
import type { TestApp } from '../helpers/app';
import { exec } from '../helpers/process';
import { bidForReceipt } from './receipt.helpers';
import { rotationWorld } from './rotation.helpers';

// docs/bid-log.md, "A key's period": a rotation ends the old key's period at a tree size, logged
// as a leaf of the tree; a verifier without state refuses what the old key signs past it.
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

/** A receipt of version 1 for `entries`, signed with `key`, as whoever holds its seed would make it. */
function forgedReceipt(key: Keypair, origin: string, entries: Receipt['entries']): Receipt {
  const unsigned = { origin, log_id: createHash('sha256').update(key.rawPublicKey()).digest('base64'), timestamp: new Date().toISOString(), entries };
  return { ...unsigned, signer: key.publicKey(), signature: key.sign(receiptMessage(unsigned)).toString('base64') };
}

let before: Receipt;
let after: Receipt;
let rotatedAt: number;

it('serves each key its period in tree sizes, the rotation logged as a leaf of the tree', async () => {
  const { bidder, lotId } = await world.bidderOnLot();
  before = await bidForReceipt(world.before(), bidder, lotId, '1000');
  expect((await checkpointBy(world.before()))?.signer).toBe(oldKey.publicKey());
  expect((await checkLog(world.before().baseUrl, { logKeys, receipt: before })).problems).toEqual([]);

  const t = await world.rotate();
  rotatedAt = before.entries[0].leaf_index + 1;
  after = await bidForReceipt(t, bidder, lotId, '1100');
  expect(after.entries[0].leaf_index).toBeGreaterThan(rotatedAt);
  expect((await checkpointBy(t))?.signer).toBe(newKey.publicKey());

  const rest = (await t.client.get('/log/keys')).body.data.map((k: { attributes: Record<string, unknown> }) => k.attributes);
  expect(rest.map(({ public_key, from_size, to_size, leaf_index }: Record<string, unknown>) => ({ public_key, from_size, to_size, leaf_index }))).toEqual([
    { public_key: oldKey.publicKey(), from_size: 0, to_size: rotatedAt, leaf_index: null },
    { public_key: newKey.publicKey(), from_size: rotatedAt, to_size: null, leaf_index: rotatedAt },
  ]);
  const gql = await t.client.graphql('{ logKeys { publicKey fromSize toSize leafIndex } }');
  expect(gql.body.data.logKeys).toEqual([
    { publicKey: oldKey.publicKey(), fromSize: 0, toSize: rotatedAt, leafIndex: null },
    { publicKey: newKey.publicKey(), fromSize: rotatedAt, toSize: null, leafIndex: rotatedAt },
  ]);
  const [leaf] = (await t.client.get(`/log/entries?from=${rotatedAt}`)).body.data.map((e: { attributes: { data: string } }) => JSON.parse(e.attributes.data));
  expect(leaf).toEqual({ v: 'bid_tlog/1', kind: 'key', key: newKey.publicKey(), replaces: oldKey.publicKey(), at: expect.any(String) });
});

it('verifies, without state, the receipts each key signed in its period and the checkpoints since', async () => {
  const t = world.after();
  for (const receipt of [before, after]) expect((await checkLog(t.baseUrl, { logKeys, receipt })).problems).toEqual([]);
  // A verifier at first use, trusting the served history, as well.
  expect((await checkLog(t.baseUrl, { receipt: before })).problems).toEqual([]);
});

it('refuses, without state, a checkpoint past the rotation signed with the replaced seed', async () => {
  const t = world.after();
  const { bidder, lotId } = await world.bidderOnLot();
  await bidForReceipt(t, bidder, lotId, '1000');
  await checkpointBy(t);
  const monitor = (state: string) =>
    exec(process.execPath, ['dist/cli/monitor.js', t.baseUrl, '--once', '--state', state, '--log-key', oldKey.publicKey(), '--log-key', newKey.publicKey()], {
      PATH: process.env.PATH,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tlog-key-periods-')),
    });
  const stateFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'tlog-key-periods-')), 'monitor.json');
  // A monitor that saw the log before the checkpoint was re-signed.
  const behind = stateFile();
  expect(await monitor(behind)).toMatchObject({ code: 0 });
  const forgedSize = await resignLatest(t, oldKey);
  expect(forgedSize).toBeGreaterThan(rotatedAt);
  const problem = `the checkpoint of size ${forgedSize} is signed only by ${oldKey.publicKey()}, whose period ended at tree size ${rotatedAt} (GET /log/keys): a replaced key signs nothing later`;
  expect((await checkLog(t.baseUrl, { logKeys })).problems).toEqual([problem]);
  expect((await checkLog(t.baseUrl, {})).problems).toEqual([problem]);
  // Nor does a witness co-sign it, which would vouch for it to verifiers without state.
  const witness = await exec(process.execPath, ['dist/cli/witness.js', t.baseUrl, '--log-key', oldKey.publicKey(), '--log-key', newKey.publicKey()], {
    PATH: process.env.PATH,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'tlog-key-periods-')),
  });
  expect([witness.code, witness.stdout]).toEqual([1, `FAIL refusing to co-sign: ${problem}\n`]);
  // A monitor neither: one that saw nothing yet, nor one that saw the log before.
  expect(await monitor(stateFile())).toMatchObject({ code: 1, stdout: `INCONSISTENT ${problem}\n` });
  expect(await monitor(behind)).toMatchObject({ code: 1, stdout: `INCONSISTENT ${problem}\n` });
  await resignLatest(t, newKey);
  expect(await monitor(behind)).toMatchObject({ code: 0 });
  expect((await checkLog(t.baseUrl, { logKeys })).problems).toEqual([]);
}, 60_000);

it('refuses a receipt signed with the replaced seed for a leaf past the rotation', async () => {
  const t = world.after();
  const forged = forgedReceipt(oldKey, after.origin, after.entries);
  expect((await checkLog(t.baseUrl, { logKeys, receipt: forged })).problems).toEqual([
    `the receipt is signed by ${oldKey.publicKey()}, whose period covers leaves 0 to ${rotatedAt - 1}, for leaf ${after.entries[0].leaf_index}: a replaced key signs nothing later`,
  ]);
  // The same seed's receipt for a leaf of its period is what it signed in its time.
  expect((await checkLog(t.baseUrl, { logKeys, receipt: forgedReceipt(oldKey, before.origin, before.entries) })).problems).toEqual([]);
});

it('refuses a served history that moves the rotation off the leaf that logged it', async () => {
  const t = world.after();
  const db = t.orm.em.fork().getConnection();
  const moved = rotatedAt + 1;
  await db.execute('update tlog_keys set to_size = ? where public_key = ?', [moved, oldKey.publicKey()]);
  await db.execute('update tlog_keys set from_size = ?, leaf_index = ? where public_key = ?', [moved, moved, newKey.publicKey()]);
  try {
    expect((await checkLog(t.baseUrl, { logKeys })).problems).toEqual([
      `the log's key history says ${newKey.publicKey()} replaced ${oldKey.publicKey()} at leaf ${moved}, but the log's leaf ${moved} logs no such rotation`,
    ]);
  } finally {
    await db.execute('update tlog_keys set to_size = ? where public_key = ?', [rotatedAt, oldKey.publicKey()]);
    await db.execute('update tlog_keys set from_size = ?, leaf_index = ? where public_key = ?', [rotatedAt, rotatedAt, newKey.publicKey()]);
  }
  expect((await checkLog(t.baseUrl, { logKeys })).problems).toEqual([]);
});
