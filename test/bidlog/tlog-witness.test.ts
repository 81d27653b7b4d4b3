import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import type { Receipt } from '../../src/modules/bidlog';
import { cosignatureLine, witnessVkey } from '../../src/modules/bidlog/tlog.cosign';
import { leafHash } from '../../src/modules/bidlog/tlog.merkle';
import { parseNote, type ParsedNote } from '../../src/modules/bidlog/tlog.note';
import { bidForReceipt } from './receipt.helpers';
import { createLot } from '../helpers/lots';
import { exec, type Run } from '../helpers/process';
import { appWithPlatform } from '../helpers/world';
import { FREE_LOT, join } from '../trading/trading.helpers';

// What vouches for the log outside the operator's reach (docs/bid-log.md, "Anchors" and
// "Witnesses"): the roots anchored on the ledger, the witnesses' co-signatures, the monitor; and
// the operator who rewrites history or shows two clients two different checkpoints, caught by each.
const w1 = Keypair.random();
const w2 = Keypair.random();
const stranger = Keypair.random();
const W1 = 'w1.example.org';
const W2 = 'w2.example.org';
const world = appWithPlatform({ accounts: 2, env: { LOG_WITNESSES: `${witnessVkey(W1, w1)}, ${witnessVkey(W2, w2)}` } });
const db = () => world.t.orm.em.fork().getConnection();
const tlog = () => world.t.app.services.transparencyLog;
const checkpoint = () => tlog().checkpointNow({ em: world.t.orm.em.fork() });
const anchor = () => world.t.app.services.logAnchors.anchorPending(world.t.orm.em.fork());
const now = () => Math.floor(Date.now() / 1000);

const dir = () => mkdtempSync(path.join(tmpdir(), 'tlog-witness-'));
const cli = (script: string, args: string[], dataDir = dir()): Promise<Run> =>
  exec(process.execPath, [`dist/cli/${script}.js`, world.t.baseUrl, ...args], { PATH: process.env.PATH, DATA_DIR: dataDir });

const bid = (who: Keypair, lotId: string, amount: string): Promise<Receipt> => bidForReceipt(world.t, who, lotId, amount);

async function lotWithBids(...amounts: string[]): Promise<string> {
  const lot = await createLot(world.t, world.platform, FREE_LOT);
  for (const a of world.accounts) await join(world.t, a.keypair, lot.id);
  for (const [i, amount] of amounts.entries()) await bid(world.accounts[i % 2].keypair, lot.id, amount);
  return lot.id;
}

async function latest(): Promise<{ size: number; root_hash: string; note: string; signer: string; anchor: { transaction: string; ledger: number } | null; cosignatures: unknown[] }> {
  const res = await world.t.client.get('/log/checkpoint');
  expect(res.status).toBe(200);
  return res.body.data.attributes;
}

const bodyOf = (note: string) => (parseNote(note) as ParsedNote).body;
const cosign = (note: string) => world.t.client.post('/log/cosign', { data: { type: 'cosignatures', attributes: { note } } });

/**
 * The operator, holding the log key and the database, lowers the lot's top bid in the log,
 * rehashes the tree and signs a checkpoint of the same size again in place of the one it served.
 * `keep` carries the old row's anchor over to the new one.
 */
async function forkHistory(lotId: string, keep = { anchor: true }): Promise<void> {
  const [top] = await db().execute(`select idx, data from tlog_leaves where lot_id = ? and kind = 'bid' order by idx desc limit 1`, [lotId]);
  const [old] = await db().execute('select size, anchor_tx, anchor_ledger, anchor_account from tlog_checkpoints order by size desc limit 1');
  const data = (top.data as string).replace(/"amount":"[\d.]+"/, '"amount":"1.00"');
  await db().execute(`update tlog_leaves set data = ?, hash = decode(?, 'hex') where idx = ?`, [data, leafHash(Buffer.from(data)).toString('hex'), top.idx]);
  await db().execute('delete from tlog_nodes');
  await db().execute('delete from tlog_checkpoints where size = ?', [old.size]);
  await db().execute('update tlog_tree set integrated = 0');
  await checkpoint();
  if (keep.anchor) await db().execute('update tlog_checkpoints set anchor_tx = ?, anchor_ledger = ?, anchor_account = ? where size = ?', [old.anchor_tx, old.anchor_ledger, old.anchor_account, old.size]);
}

describe('witnesses', () => {
  it("keeps a configured witness's co-signature and serves the checkpoint with it, REST and GraphQL", async () => {
    await lotWithBids('1000');
    await checkpoint();
    const served = await latest();
    const line = cosignatureLine(W2, w2, bodyOf(served.note), now());
    const res = await cosign(`${served.note}${line}`);
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.note).toBe(`${served.note}${line}`);
    expect(res.body.data.attributes.cosignatures).toEqual([{ witness: W2, key_id: expect.stringMatching(/^[0-9a-f]{8}$/), timestamp: expect.any(Number) }]);
    expect((await latest()).note).toBe(`${served.note}${line}`);

    const gql = await world.t.client.graphql('mutation ($note: String!) { cosignCheckpoint(input: { note: $note }) { checkpoint { size note cosignatures { witness keyId timestamp } } userErrors { code field } } }', {
      note: `${bodyOf(served.note)}\n${cosignatureLine(W1, w1, bodyOf(served.note), now())}`,
    });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.cosignCheckpoint.userErrors).toEqual([]);
    expect(gql.body.data.cosignCheckpoint.checkpoint.cosignatures.map((c: { witness: string }) => c.witness)).toEqual([W1, W2]);
    const read = await world.t.client.graphql('{ logCheckpoint(cosignatures: 2) { size cosignatures { witness } } }');
    expect(read.body.data.logCheckpoint).toEqual({ size: served.size, cosignatures: [{ witness: W1 }, { witness: W2 }] });
  });

  it('refuses an unknown key (403), a bad signature (400), a checkpoint the log never issued (409), each naming the note', async () => {
    await lotWithBids('1000');
    await checkpoint();
    const served = await latest();
    const body = bodyOf(served.note);
    const forged = `${served.size}\n${Buffer.alloc(32, 7).toString('base64')}\n`;
    const signedByW2AsW1 = cosignatureLine(W1, w2, body, now());
    const goodLine = cosignatureLine(W2, w2, body, now());
    const raw = Buffer.from(goodLine.split(' ')[2], 'base64');
    raw[40] ^= 1;
    const tampered = `\u2014 ${W2} ${raw.toString('base64')}\n`;
    const [origin, size, root] = body.split('\n');
    const padded = `${origin}\n00${size}\n${root}\n`;
    const extended = `${body}extension line\n`;
    const cases: [string, number, string][] = [
      [`${body}\n${cosignatureLine('stranger.example.org', stranger, body, now())}`, 403, 'witness_unknown'],
      [`${body}\n${signedByW2AsW1}`, 403, 'witness_unknown'],
      [`${body}\n${tampered}`, 400, 'cosignature_invalid'],
      [`${body}\n${cosignatureLine(W2, w2, body, now() + 3600)}`, 400, 'cosignature_invalid'],
      [served.note, 400, 'cosignature_invalid'],
      ['not a note', 400, 'cosignature_invalid'],
      [`auction.local/bid-log\n${forged}\n${cosignatureLine(W2, w2, `auction.local/bid-log\n${forged}`, now())}`, 409, 'checkpoint_not_issued'],
      [`other.example/log\n${body.split('\n').slice(1).join('\n')}\n${cosignatureLine(W2, w2, `other.example/log\n${body.split('\n').slice(1).join('\n')}`, now())}`, 409, 'checkpoint_not_issued'],
      // The issued checkpoint written otherwise, each co-signed over what it says: no such line verifies against the note served.
      ...[padded, extended].map((other): [string, number, string] => [`${other}\n${cosignatureLine(W2, w2, other, now())}`, 400, 'cosignature_invalid']),
    ];
    for (const [note, status, code] of cases) {
      const res = await cosign(note);
      expect([note.slice(0, 40), res.status, res.body.errors?.[0]?.code]).toEqual([note.slice(0, 40), status, code]);
      if (status !== 403) expect(res.body.errors[0].source).toEqual({ pointer: '/data/attributes/note' });
    }
    expect((await cosign('')).status).toBe(400);
    expect((await latest()).cosignatures).toEqual([]);
    const gql = await world.t.client.graphql('mutation ($note: String!) { cosignCheckpoint(input: { note: $note }) { checkpoint { size } userErrors { code field } } }', { note: `${body}\n${tampered}` });
    expect(gql.body.data.cosignCheckpoint).toEqual({ checkpoint: null, userErrors: [{ code: 'COSIGNATURE_INVALID', field: 'note' }] });
  });

  it('npm run witness co-signs each checkpoint that extends the last it co-signed, and verify-bids requires a quorum', async () => {
    const data = dir();
    const keyFile = path.join(data, 'w1.seed');
    writeFileSync(keyFile, `${w1.secret()}\n`, { mode: 0o600 });
    const lotId = await lotWithBids('1000');
    await checkpoint();
    const first = await cli('witness', ['--key', keyFile, '--name', W1], data);
    expect(first.stdout).toMatch(/^co-signed auction\.local\/bid-log size \d+ root \S+$/m);
    expect(first.stdout).toContain(`witness ${witnessVkey(W1, w1)}`);
    expect(first.code).toBe(0);
    await bid(world.accounts[1].keypair, lotId, '1100');
    await checkpoint();
    const second = await cli('witness', ['--key', keyFile, '--name', W1], data);
    expect(second.stdout).toMatch(/, consistent with size \d+$/m);
    expect(second.code).toBe(0);

    const one = await cli('verify-bids', ['--witness', witnessVkey(W1, w1), '--witness', witnessVkey(W2, w2), '--quorum', '1']);
    expect(one.stdout).toMatch(new RegExp(`^the checkpoint of size \\d+ is co-signed by ${W1} \\(quorum 1\\)$`, 'm'));
    expect(one.code).toBe(0);
    // A witness the verifier trusts that never co-signed: no checkpoint reaches the quorum of both.
    const both = await cli('verify-bids', ['--witness', witnessVkey(W1, w1), '--witness', witnessVkey('stranger.example.org', stranger)]);
    expect(both.stdout).toMatch(/^FAIL the checkpoint of size \d+ carries 1 valid co-signatures of the 2 witnesses given, fewer than the quorum of 2, and no earlier checkpoint it extends has more$/m);
    expect(both.code).toBe(1);
  }, 60_000);
});

describe('anchors', () => {
  it("writes each checkpoint's root on the ledger by a job, and verify-bids catches a rewritten history re-signed with the log key", async () => {
    const lotId = await lotWithBids('1000', '1500');
    await checkpoint();
    expect(await anchor()).toBeGreaterThan(0);
    expect(await anchor()).toBe(0);
    const served = await latest();
    expect(served.anchor).toMatchObject({ transaction: expect.stringMatching(/^[0-9a-f]{64}$/), ledger: expect.any(Number), account: served.signer });
    const tx = await world.t.client.get(`/ledger/transactions/${served.anchor?.transaction}`);
    expect(tx.body.data.attributes).toMatchObject({ source_account: served.signer, successful: true });
    const ok = await cli('verify-bids', [lotId, '--anchor', '--log-key', served.signer]);
    expect(ok.stdout).toMatch(/^the checkpoint of size \d+ is anchored in ledger \d+ \(transaction [0-9a-f]{64}\)$/m);
    expect(ok.stdout).toMatch(/^OK$/m);

    // A verifier with no state of its own: only the ledger remembers the root.
    await forkHistory(lotId);
    const caught = await cli('verify-bids', ['--anchor', '--log-key', served.signer]);
    expect(caught.stdout.split('\n').filter((l) => l.startsWith('FAIL'))).toEqual([
      expect.stringMatching(/^FAIL the checkpoint of size \d+ has root \S+, the ledger anchored \S+: the log rewrote its history$/),
    ]);
    expect(caught.code).toBe(1);

    // Nor does dropping the anchor help: a verifier that asks for one finds none.
    await db().execute('update tlog_checkpoints set anchor_tx = null, anchor_ledger = null, anchor_account = null');
    const unanchored = await cli('verify-bids', ['--anchor', '--log-key', served.signer]);
    expect(unanchored.stdout).toMatch(/^FAIL no checkpoint of the log is anchored on the ledger$/m);
    expect(unanchored.code).toBe(1);
  }, 60_000);

  it('answers the anchored checkpoint and the ledger transaction over GraphQL, and 404s an unknown one', async () => {
    await lotWithBids('1000');
    await checkpoint();
    await anchor();
    const res = await world.t.client.graphql('{ logCheckpoint(anchored: true) { size anchor { transaction ledger account } } }');
    expect(res.body.errors).toBeUndefined();
    const { transaction } = res.body.data.logCheckpoint.anchor;
    const tx = await world.t.client.graphql('query ($h: String!) { ledgerTransaction(hash: $h) { hash sourceAccount successful } }', { h: transaction });
    expect(tx.body.data.ledgerTransaction).toMatchObject({ hash: transaction, successful: true });
    const missing = await world.t.client.get(`/ledger/transactions/${'0'.repeat(64)}`);
    expect([missing.status, missing.body.errors[0].code]).toEqual([404, 'ledger_transaction_not_found']);
    const bad = await world.t.client.get('/ledger/transactions/xyz');
    expect([bad.status, bad.body.errors[0].code]).toEqual([404, 'ledger_transaction_not_found']);
  });
});

describe('a split view: two checkpoints of the same size served to two clients', () => {
  it('is refused by the witness, reported by the monitor, and fails a verifier requiring a quorum', async () => {
    const data = dir();
    const keyFile = path.join(data, 'w1.seed');
    writeFileSync(keyFile, `${w1.secret()}\n`, { mode: 0o600 });
    const monitorState = path.join(data, 'monitor.json');
    const lotId = await lotWithBids('1000', '1200');
    await checkpoint();
    const seenByA = await latest();
    expect((await cli('witness', ['--key', keyFile, '--name', W1], data)).code).toBe(0);
    expect((await cli('monitor', ['--once', '--state', monitorState], data)).code).toBe(0);
    const quorum = ['--witness', witnessVkey(W1, w1), '--quorum', '1', '--log-key', seenByA.signer];
    expect((await cli('verify-bids', quorum)).code).toBe(0);

    await forkHistory(lotId, { anchor: false });
    const seenByB = await latest();
    expect(seenByB.size).toBe(seenByA.size);
    expect(seenByB.root_hash).not.toBe(seenByA.root_hash);

    const witness = await cli('witness', ['--key', keyFile, '--name', W1], data);
    expect(witness.stdout).toBe(`FAIL refusing to co-sign: the log rewrote its history: two checkpoints of size ${seenByA.size} with different roots\n`);
    expect(witness.code).toBe(1);
    expect((await latest()).cosignatures).toHaveLength(1);

    const monitor = await cli('monitor', ['--once', '--state', monitorState], data);
    expect(monitor.stdout).toMatch(new RegExp(`^INCONSISTENT the log rewrote its history: two checkpoints of size ${seenByA.size} with different roots$`, 'm'));
    expect(monitor.code).toBe(1);

    const verifier = await cli('verify-bids', quorum);
    expect(verifier.stdout).toMatch(new RegExp(`^FAIL the checkpoint of size ${seenByA.size} carries 0 valid co-signatures of the 1 witnesses given, fewer than the quorum of 1, and no earlier checkpoint it extends has more$`, 'm'));
    expect(verifier.code).toBe(1);
    // Six command-line processes, each loading its modules afresh: 30 s ran out once at load 10.
  }, 60_000);

  it('the monitor follows every checkpoint the log lists and reports one that does not extend the one before', async () => {
    const data = dir();
    const state = path.join(data, 'monitor.json');
    const lotId = await lotWithBids('1000');
    await checkpoint();
    expect((await cli('monitor', ['--once', '--state', state], data)).code).toBe(0);
    await bid(world.accounts[1].keypair, lotId, '1100');
    await checkpoint();
    await bid(world.accounts[0].keypair, lotId, '1200');
    await checkpoint();
    const follow = await cli('monitor', ['--once', '--state', state], data);
    expect(follow.stdout.match(/^checkpoint \d+ \S+ extends \d+$/gm)).toHaveLength(2);
    expect(follow.code).toBe(0);
  });
});
