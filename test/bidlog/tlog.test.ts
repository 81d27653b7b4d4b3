import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { checkLog } from '../../src/cli/tlog-check';
import type { Receipt } from '../../src/modules/bidlog';
import { receiptSignedBy } from '../../src/modules/bidlog/tlog.receipt';
import { leafHash, nodeHash, verifyConsistency, verifyInclusion } from '../../src/modules/bidlog/tlog.merkle';
import { noteSignedBy, parseNote, type ParsedNote } from '../../src/modules/bidlog/tlog.note';
import { Participant } from '../../src/modules/trading/trading.entity';
import { bearerFor } from '../blacklist/support';
import { signHeaders } from '../helpers/client';
import { bidForReceipt } from './receipt.helpers';
import { createLot } from '../helpers/lots';
import { exec } from '../helpers/process';
import { appWithPlatform } from '../helpers/world';
import { chooseWinner, closeLot, FREE_LOT, join } from '../trading/trading.helpers';

// The transparency log (docs/bid-log.md): receipts, checkpoints and proofs checked as an outsider
// checks them, and the operator, who holds every key and the database, caught rewriting history.
const world = appWithPlatform({ accounts: 3 });
const db = () => world.t.orm.em.fork().getConnection();
const tlog = () => world.t.app.services.transparencyLog;
const checkpoint = () => tlog().checkpointNow({ em: world.t.orm.em.fork() });
const b64 = (h: string) => Buffer.from(h, 'base64');

async function openLot(): Promise<string> {
  const lot = await createLot(world.t, world.platform, FREE_LOT);
  for (const a of world.accounts) await join(world.t, a.keypair, lot.id);
  return lot.id;
}

const bid = (who: Keypair, lotId: string, amount: string): Promise<Receipt> => bidForReceipt(world.t, who, lotId, amount);

async function latest(): Promise<{ size: number; root_hash: string; note: string; signer: string }> {
  const res = await world.t.client.get('/log/checkpoint');
  expect(res.status).toBe(200);
  return res.body.data.attributes;
}

const stateFile = () => path.join(mkdtempSync(path.join(tmpdir(), 'tlog-state-')), 'state.json');

/** The operator rewrites the log from `index` on with `rewrite` and signs it again with the log's own key. */
async function rewriteHistory(rewrite: () => Promise<void>): Promise<void> {
  await rewrite();
  await db().execute('delete from tlog_nodes');
  await db().execute('delete from tlog_checkpoints');
  await db().execute('update tlog_tree set integrated = 0');
  await db().execute('update tlog_size set size = (select count(*) from tlog_leaves)');
  await checkpoint();
}

describe('the transparency log of bids', () => {
  it('gives every accepted bid a signed receipt and proves it in the next checkpoint, signed by a key that is not the master key', async () => {
    const lotId = await openLot();
    const [a, b] = world.accounts;
    const receipt = await bid(a.keypair, lotId, '1000');
    expect(receipt).toMatchObject({ origin: 'auction.local/bid-log', entries: [{ leaf_index: expect.any(Number), leaf_hash: expect.any(String) }] });
    expect(receipt.signer).not.toBe(world.t.master.publicKey());
    await bid(b.keypair, lotId, '1100');
    const made = await checkpoint();
    expect(made).not.toBeNull();

    const served = await latest();
    const note = parseNote(served.note) as ParsedNote;
    expect(note.body).toBe(`auction.local/bid-log\n${served.size}\n${served.root_hash}\n`);
    expect(served.note).toMatch(/\n\n\u2014 auction\.local\/bid-log [A-Za-z0-9+/=]+\n$/);
    expect(noteSignedBy(note, 'auction.local/bid-log', receipt.signer)).toBe(true);
    expect(noteSignedBy(note, 'auction.local/bid-log', world.t.master.publicKey())).toBe(false);

    const [entry] = receipt.entries;
    const proof = await world.t.client.get(`/log/proof/inclusion?leaf_index=${entry.leaf_index}&tree_size=${served.size}`);
    expect(proof.status).toBe(200);
    expect(verifyInclusion(entry.leaf_index, served.size, b64(entry.leaf_hash), proof.body.data.attributes.hashes.map(b64), b64(served.root_hash))).toBe(true);

    const leaf = (await world.t.client.get(`/log/entries?from=${entry.leaf_index}`)).body.data[0].attributes;
    expect(leafHash(Buffer.from(leaf.data)).toString('base64')).toBe(entry.leaf_hash);
    expect(JSON.parse(leaf.data)).toMatchObject({ kind: 'bid', lot_id: lotId, amount: '1000.00', backfilled_at: null, bidder_commitment: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(leaf.data).not.toContain(a.id);
  });

  it('answers the bids and their receipt as a document to a request that prefers return=representation; 204 otherwise', async () => {
    const lotId = await openLot();
    const [a, b] = world.accounts;
    const send = (who: Keypair, amount: string, prefer?: string) => {
      const target = `/lots/${lotId}/bid_requests`;
      const body = { data: { type: 'bid_requests', attributes: { amount } } };
      const headers: Record<string, string> = { 'content-type': 'application/vnd.api+json', ...(prefer ? { prefer } : {}) };
      signHeaders('POST', target, headers, Buffer.from(JSON.stringify(body)), { keypair: who });
      return world.t.client.request('POST', target, { body, headers });
    };
    const res = await send(a.keypair, '1000', 'respond-async, return=representation; foo=bar');
    expect(res.status).toBe(200);
    expect(res.headers['preference-applied']).toBe('return=representation');
    expect(res.headers.vary).toMatch(/\bPrefer\b/i);
    expect(res.body.data).toEqual([{ type: 'bids', id: expect.any(String), attributes: expect.objectContaining({ lot_id: Number(lotId), amount: '1000.00', account_id: a.id, placed_by_proxy: false }) }]);
    const header = JSON.parse(Buffer.from(res.headers['bid-receipt'] as string, 'base64').toString('utf8')) as Receipt;
    expect(res.body.meta).toEqual({ receipt: header, bid_receipt: res.headers['bid-receipt'] });
    expect(receiptSignedBy(header, header.signer)).toBe(true);
    const leaf = (await world.t.client.get(`/log/entries?from=${header.entries[0].leaf_index}`)).body.data[0].attributes;
    expect(JSON.parse(leaf.data)).toMatchObject({ kind: 'bid', bid_id: res.body.data[0].id });

    const minimal = await send(b.keypair, '1100', 'return=minimal');
    expect(minimal.status).toBe(204);
    expect(minimal.headers['preference-applied']).toBeUndefined();
    expect(minimal.text).toBe('');
    expect(minimal.headers['bid-receipt']).toEqual(expect.any(String));
  });

  it('extends every earlier checkpoint: a consistency proof links each to the next', async () => {
    const lotId = await openLot();
    await bid(world.accounts[0].keypair, lotId, '1000');
    const first = (await checkpoint()) ?? (await latest());
    await bid(world.accounts[1].keypair, lotId, '1100');
    await bid(world.accounts[2].keypair, lotId, '1200');
    await checkpoint();
    const second = await latest();
    const proof = await world.t.client.get(`/log/proof/consistency?from=${first.size}&to=${second.size}`);
    expect(proof.status).toBe(200);
    const firstRoot = 'rootHash' in first ? b64(first.rootHash) : b64((first as { root_hash: string }).root_hash);
    expect(verifyConsistency(first.size, second.size, firstRoot, b64(second.root_hash), proof.body.data.attributes.hashes.map(b64))).toBe(true);
    const kept = await world.t.client.get(`/log/checkpoints?from=${first.size}&to=${second.size}`);
    expect(kept.body.data.map((c: { attributes: { size: number } }) => c.attributes.size)).toEqual([first.size, second.size]);
  });

  it('logs and checkpoints the close in its own transaction, and a lot verifies from its leaves', async () => {
    const lotId = await openLot();
    const [a, b] = world.accounts;
    await bid(a.keypair, lotId, '1000');
    await bid(b.keypair, lotId, '1100');
    const winner = await world.t.orm.em.fork().findOneOrFail(Participant, { lotId, accountId: b.id });
    expect((await chooseWinner(world.t, world.platform, lotId, winner)).status).toBe(200);
    expect((await closeLot(world.t, world.platform, lotId, 'sold')).status).toBe(200);
    const leaves = (await world.t.client.get(`/log/entries?from=0&lot_id=${lotId}`)).body.data.map((d: { attributes: { data: string; leaf_index: number } }) => d.attributes);
    const close = JSON.parse(leaves[leaves.length - 1].data);
    expect(close).toMatchObject({ kind: 'close', lot_state: 'sold', winner_id: b.id, highest_bid: '1100.00', bids: 2 });
    expect((await latest()).size).toBeGreaterThan(leaves[leaves.length - 1].leaf_index);
    const result = await checkLog(world.t.baseUrl, { lotId, logKeys: [(await latest()).signer] });
    expect(result.problems).toEqual([]);
  });

  it('serializes the appends of lots bid on at once: one leaf per bid, indexes without gap, every one proved', async () => {
    const lots = [await openLot(), await openLot()];
    const before = Number((await db().execute('select size from tlog_size'))[0].size);
    const receipts = await Promise.all(
      lots.flatMap((lotId) => world.accounts.map((a, i) => bid(a.keypair, lotId, String(1000 + 100 * i)).catch(() => null))),
    );
    const accepted = receipts.filter((r): r is Receipt => r !== null);
    const indexes = accepted.flatMap((r) => r.entries.map((e) => e.leaf_index)).sort((x, y) => x - y);
    const size = Number((await db().execute('select size from tlog_size'))[0].size);
    expect(indexes).toEqual(Array.from({ length: size - before }, (_, i) => before + i));
    await checkpoint();
    const served = await latest();
    for (const r of accepted) {
      const e = r.entries[0];
      const proof = (await world.t.client.get(`/log/proof/inclusion?leaf_index=${e.leaf_index}&tree_size=${served.size}`)).body.data.attributes.hashes;
      expect(verifyInclusion(e.leaf_index, served.size, b64(e.leaf_hash), proof.map(b64), b64(served.root_hash))).toBe(true);
    }
  });

  it('gives a JWT bidder a receipt over GraphQL that npm run verify-bids proves from the receipt alone', async () => {
    const lotId = await openLot();
    const token = await bearerFor(world.t, world.accounts[0].id);
    const res = await world.t.client.graphql(
      'mutation ($lot: ID!) { placeBid(lotId: $lot, amount: "1000") { receipt { logId signer entries { leafIndex leafHash } encoded } } }',
      { lot: lotId },
      { bearer: token },
    );
    expect(res.body.errors).toBeUndefined();
    const receipt = res.body.data.placeBid.receipt;
    expect(receipt.entries).toHaveLength(1);
    await checkpoint();
    const dir = mkdtempSync(path.join(tmpdir(), 'tlog-receipt-'));
    writeFileSync(path.join(dir, 'receipt'), receipt.encoded);
    const env = { PATH: process.env.PATH, DATA_DIR: dir };
    const run = await exec(process.execPath, ['dist/cli/verify-bids.js', world.t.baseUrl, '--receipt', path.join(dir, 'receipt'), '--log-key', receipt.signer], env);
    expect(run.stdout).toMatch(new RegExp(`^the receipt's leaf ${receipt.entries[0].leafIndex} is in the checkpoint$`, 'm'));
    expect(run.stdout).toMatch(/^OK$/m);
    expect(run.code).toBe(0);
  });

  it('answers the GraphQL twins of the log reads', async () => {
    const lotId = await openLot();
    await bid(world.accounts[0].keypair, lotId, '1000');
    await checkpoint();
    const served = await latest();
    const res = await world.t.client.graphql(
      `query ($n: Int!) { logCheckpoint { size rootHash note } logCheckpoints(to: $n) { size } logInclusionProof(leafIndex: 0, treeSize: $n) { hashes } logConsistencyProof(from: 1, to: $n) { hashes } logEntries(from: 0, lotId: "${lotId}") { leafIndex data } }`,
      { n: served.size },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.logCheckpoint).toMatchObject({ size: served.size, rootHash: served.root_hash, note: served.note });
    expect(res.body.data.logEntries).toHaveLength(1);
  });

  it('refuses bad proof requests with a 4xx naming the parameter', async () => {
    await openLot().then((lotId) => bid(world.accounts[0].keypair, lotId, '1000'));
    await checkpoint();
    const { size } = await latest();
    const cases: [string, number, string][] = [
      [`/log/proof/inclusion?leaf_index=-1&tree_size=${size}`, 400, 'leaf_index'],
      [`/log/proof/inclusion?leaf_index=${size}&tree_size=${size}`, 400, 'leaf_index'],
      [`/log/proof/inclusion?leaf_index=0&tree_size=${size + 1000}`, 404, 'tree_size'],
      [`/log/proof/inclusion?leaf_index=0&tree_size=99999999999999999999`, 400, 'tree_size'],
      [`/log/proof/consistency?from=${size + 1}&to=${size}`, 400, 'from'],
      [`/log/proof/consistency?from=0&to=${size}`, 400, 'from'],
      ['/log/checkpoints?from=5&to=2', 400, 'to'],
      ['/log/entries?from=0&lot_id=abc', 400, 'lot_id'],
      ['/log/entries', 400, 'from'],
    ];
    for (const [target, status, parameter] of cases) {
      const res = await world.t.client.get(target);
      expect([target, res.status]).toEqual([target, status]);
      expect(res.body.errors[0].source).toEqual({ parameter });
    }
    // Details in REST's own names: an outside test read GraphQL's treeSize and leafIndex in them.
    const below = await world.t.client.get(`/log/proof/inclusion?leaf_index=${size}&tree_size=${size}`);
    expect(below.body.errors[0].detail).toBe(`leaf_index must be below the tree size, ${size}`);
    const both = await world.t.client.get(`/log/proof/inclusion?leaf_index=0&leaf_hash=${encodeURIComponent(Buffer.alloc(32).toString('base64'))}&tree_size=${size}`);
    expect([both.status, both.body.errors[0].source, both.body.errors[0].detail]).toEqual([400, { parameter: 'leaf_hash' }, 'the leaf is given by its index or by its hash, not both']);
  });
});

describe('the operator who holds every key and the database', () => {
  it('is caught rewriting history and signing it again: by the checkpoint a verifier kept, and by a bidder\'s receipt', async () => {
    const lotId = await openLot();
    const receipt = await bid(world.accounts[0].keypair, lotId, '1000');
    await bid(world.accounts[1].keypair, lotId, '1500');
    await checkpoint();
    const state = stateFile();
    const logKeys = [receipt.signer];
    expect((await checkLog(world.t.baseUrl, { logKeys, statePath: state, receipt, lotId })).problems).toEqual([]);

    // Lower the winning bid, in the bids and in the log, recompute every hash and sign anew.
    const [top] = await db().execute(`select idx, data from tlog_leaves where lot_id = ? and kind = 'bid' order by idx desc limit 1`, [lotId]);
    const data = (top.data as string).replace('"1500.00"', '"1200.00"');
    await rewriteHistory(async () => {
      await db().execute(`update tlog_leaves set data = ?, hash = decode(?, 'hex') where idx = ?`, [data, leafHash(Buffer.from(data)).toString('hex'), top.idx]);
      await db().execute(`update bids set amount = 1200 where lot_id = ? and amount = 1500`, [lotId]);
      await db().execute(`update lots set highest_bid = 1200 where id = ?`, [lotId]);
    });
    const caught = await checkLog(world.t.baseUrl, { logKeys, statePath: state, lotId });
    expect(caught.problems).toEqual([expect.stringMatching(/^the log rewrote its history/)]);

    // Drop the first bidder's bid: its receipt no longer matches the leaf at its index.
    await rewriteHistory(async () => {
      await db().execute(`delete from tlog_leaves where idx = ?`, [receipt.entries[0].leaf_index]);
      await db().execute(`update tlog_leaves set idx = idx - 1 where idx > ?`, [receipt.entries[0].leaf_index]);
    });
    const dropped = await checkLog(world.t.baseUrl, { logKeys, receipt });
    expect(dropped.problems).toEqual([expect.stringMatching(/^the receipt's leaf \d+ is not in the checkpoint .*: the log dropped or changed the bid$/)]);
  });

  it("is caught when a receipt's bid is missing from a checkpoint signed after the promise", async () => {
    const lotId = await openLot();
    const receipt = await bid(world.accounts[0].keypair, lotId, '1000');
    await rewriteHistory(async () => {
      await db().execute(`delete from tlog_leaves where idx >= ?`, [receipt.entries[0].leaf_index]);
    });
    const result = await checkLog(world.t.baseUrl, { logKeys: [receipt.signer], receipt, graceSeconds: 0 });
    expect(result.problems).toEqual([expect.stringMatching(/^the receipt's leaf \d+ is missing from the checkpoint of size \d+, served past the receipt's promise$/)]);
  });

  it('cannot pass off a checkpoint or a receipt signed by another key, the master key included', async () => {
    const lotId = await openLot();
    const receipt = await bid(world.accounts[0].keypair, lotId, '1000');
    await checkpoint();
    const forged = { ...receipt, signer: world.t.master.publicKey(), signature: world.t.master.sign(Buffer.from('x')).toString('base64') };
    const result = await checkLog(world.t.baseUrl, { logKeys: [receipt.signer], receipt: forged });
    expect(result.problems).toContain(`the receipt is not signed by the log key ${receipt.signer}`);
    const other = await checkLog(world.t.baseUrl, { logKeys: [world.t.master.publicKey()] });
    expect(other.problems).toEqual([expect.stringMatching(/^the checkpoint of size \d+ is not signed by the log key/)]);
  });
});

it('hashes nodes as RFC 9162 (0x01 prefix), so that no leaf can pass for a node', () => {
  const l = leafHash(Buffer.from('a'));
  expect(nodeHash(l, l).equals(leafHash(Buffer.concat([l, l])))).toBe(false);
});
