import { mkdtempSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { checkLog } from '../../src/cli/tlog-check';
import { rowsOf } from '../../src/db/query';
import { sql } from '../../src/db/sql';
import type { BatchReceipt, Receipt } from '../../src/modules/bidlog';
import { memoryTree, inclusionProof, leafHash, rootOf, verifyInclusion } from '../../src/modules/bidlog/tlog.merkle';
import { receiptMessage, receiptSignedBy } from '../../src/modules/bidlog/tlog.receipt';
import { bidForReceipt } from './receipt.helpers';
import { createLot } from '../helpers/lots';
import { exec } from '../helpers/process';
import { appWithPlatform } from '../helpers/world';
import { FREE_LOT, join } from '../trading/trading.helpers';

// Receipts of version 3 (docs/bid-log.md, "Receipts"): a bid round signs the Merkle root of its
// requests' receipts once, and each receipt carries its audit path to that root, so a hot lot's
// round costs one signature. A receipt must still prove its bids from itself alone, and a path,
// a root or an entry changed by anyone must fail.
const world = appWithPlatform({ accounts: 8 });
const tlog = () => world.t.app.services.transparencyLog;
const checkpoint = () => tlog().checkpointNow({ em: world.t.orm.em.fork() });

async function openLot(): Promise<string> {
  const lot = await createLot(world.t, world.platform, FREE_LOT);
  for (const a of world.accounts) await join(world.t, a.keypair, lot.id);
  return lot.id;
}

/** Every account bids on a fresh lot at once: the requests that arrive while the first round runs form the next one together. */
async function concurrentReceipts(): Promise<BatchReceipt[]> {
  const lotId = await openLot();
  const receipts = await Promise.all(world.accounts.map((a, i) => bidForReceipt(world.t, a.keypair, lotId, String(1000 + 100 * i)).catch(() => null)));
  return receipts.filter((r) => r !== null) as unknown as BatchReceipt[];
}

/** Receipts of one round, at least two of them: a few lots' worth of concurrent bids give one. */
async function sharedRound(): Promise<BatchReceipt[]> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const receipts = await concurrentReceipts();
    const shared = receipts.filter((r) => r.batch.size > 1);
    if (shared.length) return receipts.filter((r) => r.signature === shared[0].signature);
  }
  throw new Error('no two concurrent bids on a lot shared a round in three tries');
}

describe('receipts of a bid round under one signature (version 3)', () => {
  it('signs a round once: its receipts share the signature and the root, each proves its place and its bids in the next checkpoint', async () => {
    const round = await sharedRound();
    const [first] = round;
    expect(round.length).toBe(first.batch.size);
    expect(round.map((r) => r.batch.index).sort((a, b) => a - b)).toEqual(Array.from({ length: first.batch.size }, (_, i) => i));
    for (const r of round) {
      expect(r).toMatchObject({ version: 3, origin: 'auction.local/bid-log', signer: tlog().signer, signature: first.signature, timestamp: first.timestamp, batch: { root: first.batch.root } });
      expect(r.entries).toEqual([{ leaf_index: expect.any(Number), leaf_hash: expect.any(String) }]);
      expect(receiptSignedBy(r, tlog().signer)).toBe(true);
    }
    await checkpoint();
    for (const r of round) {
      const check = await checkLog(world.t.baseUrl, { logKeys: [tlog().signer], receipt: r });
      expect(check.problems).toEqual([]);
      expect(check.notes).toContain(`the receipt's leaf ${r.entries[0].leaf_index} is in the checkpoint`);
    }
  });

  it("signs a sequencer's run once: bids on several lots whose rounds found the log's counter held share one signature, each proving its bids", async () => {
    const lots = [await openLot(), await openLot(), await openLot(), await openLot()];
    const waiting = async () => Number((await world.t.orm.em.fork().getConnection().execute(`select count(*)::int as n from tlog_leaves where idx is null`))[0].n);
    let run: BatchReceipt[] = [];
    for (let attempt = 0; attempt < 3 && run.length < 2; attempt++) {
      // Another session holds the counter: each round leaves its leaves to the sequencer, whose first run waits for it.
      const holder = world.t.orm.em.fork();
      await holder.begin();
      await rowsOf(holder, sql`select size from tlog_size for update`);
      const bids = lots.map((lotId, i) => bidForReceipt(world.t, world.accounts[i].keypair, lotId, String(2000 + 100 * attempt)));
      for (let i = 0; i < 100 && (await waiting()) < lots.length; i++) await sleep(20);
      await holder.commit();
      const receipts = (await Promise.all(bids)) as unknown as BatchReceipt[];
      // The first request's run took the counter alone; those that came while it waited form the next run.
      const shared = receipts.find((r) => r.version === 3 && r.batch.size > 1);
      run = shared ? receipts.filter((r) => r.signature === shared.signature) : [];
    }
    expect(run.length).toBeGreaterThan(1);
    const [first] = run;
    expect(run.map((r) => r.batch.index).sort((a, b) => a - b)).toEqual(Array.from({ length: first.batch.size }, (_, i) => i));
    for (const r of run) {
      expect(r).toMatchObject({ version: 3, signer: tlog().signer, timestamp: first.timestamp, batch: { size: run.length, root: first.batch.root } });
      expect(receiptSignedBy(r, tlog().signer)).toBe(true);
    }
    await checkpoint();
    for (const r of run) expect((await checkLog(world.t.baseUrl, { logKeys: [tlog().signer], receipt: r })).problems).toEqual([]);
  }, 60_000);

  it('fails a receipt whose path, root, place or entries were changed, and one moved onto another receipt of the round', async () => {
    const round = await sharedRound();
    const [r, other] = round;
    const flipped = (h: string) => {
      const bytes = Buffer.from(h, 'base64');
      bytes[0] ^= 1;
      return bytes.toString('base64');
    };
    const tampered: [string, BatchReceipt][] = [
      ['a hash of its path', { ...r, batch: { ...r.batch, path: [flipped(r.batch.path[0]), ...r.batch.path.slice(1)] } }],
      ['its path cut short', { ...r, batch: { ...r.batch, path: r.batch.path.slice(1) } }],
      ['its root', { ...r, batch: { ...r.batch, root: flipped(r.batch.root) } }],
      ['its place', { ...r, batch: { ...r.batch, index: other.batch.index } }],
      ["the batch's size", { ...r, batch: { ...r.batch, size: r.batch.size + 1 } }],
      ['its leaf index', { ...r, entries: [{ ...r.entries[0], leaf_index: r.entries[0].leaf_index + 1 }] }],
      ['its leaf hash', { ...r, entries: [{ ...r.entries[0], leaf_hash: flipped(r.entries[0].leaf_hash) }] }],
      ["another receipt's entries under its path", { ...r, entries: other.entries }],
      // Signed as version 3 (the batch's size and root), read as no version that proves its entries.
      ['its version, with entries of its own', { ...r, version: 4, entries: [{ leaf_index: 0, leaf_hash: flipped(r.entries[0].leaf_hash) }] } as unknown as BatchReceipt],
    ];
    for (const [what, receipt] of tampered) {
      expect([what, receiptSignedBy(receipt, tlog().signer)]).toEqual([what, false]);
    }
    await checkpoint();
    const result = await checkLog(world.t.baseUrl, { logKeys: [tlog().signer], receipt: tampered[0][1] });
    expect(result.problems).toContain(`the receipt is not signed by the log key ${tlog().signer}`);
  });

  it('answers version 3 over GraphQL with its batch, and npm run verify-bids proves it from the receipt alone', async () => {
    const lotId = await openLot();
    const [bidder] = world.accounts;
    const res = await world.t.client
      .as(bidder.keypair)
      .graphql('mutation ($lot: ID!) { placeBid(lotId: $lot, amount: "1000") { receipt { version entries { leafIndex leafHash } batch { size index root path } signer encoded } } }', { lot: lotId });
    expect(res.body.errors).toBeUndefined();
    const served = res.body.data.placeBid.receipt;
    const decoded = JSON.parse(Buffer.from(served.encoded, 'base64').toString('utf8')) as BatchReceipt;
    expect(served).toMatchObject({ version: 3, batch: decoded.batch, entries: [{ leafIndex: decoded.entries[0].leaf_index, leafHash: decoded.entries[0].leaf_hash }] });
    await checkpoint();
    const dir = mkdtempSync(path.join(tmpdir(), 'tlog-round-receipt-'));
    writeFileSync(path.join(dir, 'receipt'), served.encoded);
    const run = await exec(process.execPath, ['dist/cli/verify-bids.js', world.t.baseUrl, '--receipt', path.join(dir, 'receipt'), '--log-key', served.signer], { PATH: process.env.PATH, DATA_DIR: dir });
    expect(run.stdout).toMatch(new RegExp(`^the receipt's leaf ${decoded.entries[0].leaf_index} is in the checkpoint$`, 'm'));
    expect(run.stdout).toMatch(/^OK$/m);
    expect(run.code).toBe(0);
  }, 60_000);

  it('still verifies a receipt of version 1, signed per request before rounds were signed together', async () => {
    const lotId = await openLot();
    const r = (await bidForReceipt(world.t, world.accounts[0].keypair, lotId, '1000')) as unknown as BatchReceipt;
    const unsigned = { origin: r.origin, log_id: r.log_id, timestamp: r.timestamp, entries: r.entries };
    const v1: Receipt = { ...unsigned, signer: r.signer, signature: tlog().key.sign(receiptMessage(unsigned)).toString('base64') };
    expect(receiptSignedBy(v1, tlog().signer)).toBe(true);
    // Version 1's signature does not pass for version 3's, nor the reverse.
    expect(receiptSignedBy({ ...v1, signature: r.signature }, tlog().signer)).toBe(false);
    await checkpoint();
    expect((await checkLog(world.t.baseUrl, { logKeys: [tlog().signer], receipt: v1 })).problems).toEqual([]);
  });
});

const hex = (b: Buffer) => b.toString('hex');

it("builds a batch's tree in memory as the log's tree is built (RFC 9162): the same root and audit paths, each verified", () => {
  for (let size = 1; size <= 70; size++) {
    const leaves = Array.from({ length: size }, (_, i) => leafHash(Buffer.from(`receipt ${i}`)));
    const tree = memoryTree(leaves);
    // The stored log's way: complete, aligned subtrees read as nodes.
    const node = (level: number, index: number) => memoryTree(leaves.slice(index * 2 ** level, (index + 1) * 2 ** level)).root;
    expect(tree.root.equals(rootOf(node, size))).toBe(true);
    for (let i = 0; i < size; i++) {
      // As hex: jest compares a Buffer byte by byte as an object's keys, a second of the suite's CPU here.
      expect(tree.path(i).map(hex)).toEqual(inclusionProof(node, i, size).map(hex));
      expect(verifyInclusion(i, size, leaves[i], tree.path(i), tree.root)).toBe(true);
    }
    if (size > 1) expect(verifyInclusion(0, size, leaves[1], tree.path(0), tree.root)).toBe(false);
  }
});
