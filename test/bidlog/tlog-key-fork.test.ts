import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { checkLog } from '../../src/cli/tlog-check';
import { cosignatureLine, parseWitnessKey, witnessVkey, type WitnessKey } from '../../src/modules/bidlog/tlog.cosign';
import { leafHash } from '../../src/modules/bidlog/tlog.merkle';
import { parseNote, type ParsedNote } from '../../src/modules/bidlog/tlog.note';
import type { TestApp } from '../helpers/app';
import { bidForReceipt } from './receipt.helpers';
import { rotationWorld } from './rotation.helpers';

// docs/bid-log.md, "A key's period": the operator, forging with the replaced seed, serves a fork of
// the log that omits the rotation. A verifier without state takes it for a log not yet rotated;
// a witness quorum, a verifier's state, and naming only the new key catch it.
const w = Keypair.random();
const W = 'w.example.org';
const world = rotationWorld({ LOG_WITNESSES: witnessVkey(W, w) });
const { oldKey, newKey } = world;
const witnesses = [parseWitnessKey(witnessVkey(W, w)) as WitnessKey];
const outside = { anchor: 'auto' as const, networkPassphrase: 'Test SDF Network ; September 2015', witnesses, quorum: 1 };

const checkpointBy = (t: TestApp) => t.app.services.transparencyLog.checkpointNow({ em: t.orm.em.fork() });
const db = () => world.before().orm.em.fork().getConnection();

/** The rotation's leaf index after a bid on each side of it, the latest checkpoint co-signed by the witness. */
async function rotatedAndWitnessed(statePath: string): Promise<number> {
  const { bidder, lotId } = await world.bidderOnLot();
  const before = await bidForReceipt(world.before(), bidder, lotId, '1000');
  await checkpointBy(world.before());
  const t = await world.rotate();
  await bidForReceipt(t, bidder, lotId, '1100');
  const signed = await checkpointBy(t);
  const body = (parseNote(signed?.note as string) as ParsedNote).body;
  const cosigned = await t.client.post('/log/cosign', { data: { type: 'cosignatures', attributes: { note: `${body}\n${cosignatureLine(W, w, body, Math.floor(Date.now() / 1000))}` } } });
  expect(cosigned.status).toBe(200);
  expect((await checkLog(t.baseUrl, { logKeys: [oldKey.publicKey(), newKey.publicKey()], statePath, outside })).problems).toEqual([]);
  return before.entries[0].leaf_index + 1;
}

it('catches a fork without the rotation, signed with the replaced seed, by a witness quorum, by state, and by naming the new key', async () => {
  const statePath = path.join(mkdtempSync(path.join(tmpdir(), 'tlog-key-fork-')), 'state.json');
  const rotatedAt = await rotatedAndWitnessed(statePath);

  // The fork: the rotation's leaf gone from the tree, the history without the new key, a checkpoint by the old seed.
  const data = JSON.stringify({ v: 'bid_tlog/1', kind: 'close', lot_id: '0', lot_state: 'finished', highest_bid: null, winner_id: null, bids: 0, at: new Date().toISOString(), backfilled_at: null });
  await db().execute(`update tlog_leaves set data = ?, hash = decode(?, 'hex') where idx = ?`, [data, leafHash(Buffer.from(data)).toString('hex'), rotatedAt]);
  await db().execute('delete from tlog_cosignatures');
  await db().execute('delete from tlog_checkpoints where size > ?', [rotatedAt]);
  await db().execute('delete from tlog_nodes');
  await db().execute('update tlog_tree set integrated = 0');
  await db().execute('delete from tlog_keys where public_key = ?', [newKey.publicKey()]);
  await db().execute('update tlog_keys set until = null, to_size = null');
  const forged = await checkpointBy(world.before());
  expect(forged?.signer).toBe(oldKey.publicKey());
  expect(forged?.size).toBeGreaterThan(rotatedAt);
  const base = world.after().baseUrl;

  // What a verifier without state cannot tell from a log not rotated yet.
  expect((await checkLog(base, {})).problems).toEqual([]);
  const told = await checkLog(base, { logKeys: [oldKey.publicKey(), newKey.publicKey()] });
  expect([told.problems, told.notes]).toEqual([[], expect.arrayContaining([expect.stringContaining(`the log's key history does not name ${newKey.publicKey()}, given with --log-key`)])]);

  expect((await checkLog(base, { outside })).problems).toEqual([expect.stringContaining('fewer than the quorum of 1')]);
  expect((await checkLog(base, { logKeys: [oldKey.publicKey(), newKey.publicKey()], statePath })).problems).toEqual([
    `the log rewrote its history: two checkpoints of size ${forged?.size} with different roots`,
  ]);
  expect((await checkLog(base, { logKeys: [newKey.publicKey()] })).problems).toEqual([`the checkpoint of size ${forged?.size} is not signed by the log key ${newKey.publicKey()}`]);
});
