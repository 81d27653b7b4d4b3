import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { checkLog } from '../../src/cli/tlog-check';
import type { HashReceipt } from '../../src/modules/bidlog';
import { receiptMessage, receiptSignedBy } from '../../src/modules/bidlog/tlog.receipt';
import { bearerFor } from '../blacklist/support';
import { createLot } from '../helpers/lots';
import { exec } from '../helpers/process';
import { appWithPlatform } from '../helpers/world';
import { FREE_LOT, join } from '../trading/trading.helpers';
import { bidForReceipt } from './receipt.helpers';

// Receipts of version 2 (docs/bid-log.md, "Receipts"): when the log could not number a round's
// leaves by the answer, the receipt promises them by hash, and the verifier finds each one's
// index with the proof by hash (RFC 9162's get-proof-by-hash).
const world = appWithPlatform({ accounts: 2 });
const db = () => world.t.orm.em.fork().getConnection();
const tlog = () => world.t.app.services.transparencyLog;
const checkpoint = () => tlog().checkpointNow({ em: world.t.orm.em.fork() });
const hex = (b64: string) => Buffer.from(b64, 'base64').toString('hex');

async function openLot(): Promise<string> {
  const lot = await createLot(world.t, world.platform, FREE_LOT);
  for (const a of world.accounts) await join(world.t, a.keypair, lot.id);
  return lot.id;
}

/**
 * Runs `bidding` while another transaction holds the log's counter row, so the round leaves its
 * leaves to the sequencer, and stops the sequencer's run waiting for the row, as a database fault
 * would: the bids are answered with a receipt by hash and their leaves stay without an index.
 */
async function unnumbered<T>(bidding: () => Promise<T>): Promise<T> {
  // A connection of its own, outside the service's pool.
  const holder = new Client({ connectionString: world.t.config.DATABASE_URL });
  await holder.connect();
  try {
    await holder.query('begin');
    await holder.query('select from tlog_size for update');
    // Sent now (the test client sends when awaited), awaited once its wait is stopped.
    const answer = Promise.resolve(bidding());
    let answered = false;
    void answer.finally(() => (answered = true)).catch(() => undefined);
    while (!answered) {
      // The statistics are read once a transaction otherwise: clear them to see the sequencer arrive.
      await holder.query('select pg_stat_clear_snapshot()');
      await holder.query(
        `select pg_cancel_backend(pid) from pg_stat_activity
          where pid <> pg_backend_pid() and datname = current_database() and wait_event_type = 'Lock' and query like 'select size from tlog_size for update%'`,
      );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return await answer;
  } finally {
    await holder.end();
  }
}

const decoded = (encoded: string) => JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as HashReceipt;

async function verifyBids(receipt: HashReceipt): Promise<{ code: number | null; stdout: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'tlog-receipt-v2-'));
  writeFileSync(path.join(dir, 'receipt'), Buffer.from(JSON.stringify(receipt)).toString('base64'));
  return exec(process.execPath, ['dist/cli/verify-bids.js', world.t.baseUrl, '--receipt', path.join(dir, 'receipt'), '--log-key', receipt.signer], { PATH: process.env.PATH, DATA_DIR: dir });
}

describe('a receipt by leaf hash', () => {
  it('is given to a JWT bidder whose leaves the log could not number by the answer, and npm run verify-bids proves it from the receipt alone', async () => {
    const lotId = await openLot();
    const token = await bearerFor(world.t, world.accounts[0].id);
    const res = await unnumbered(() =>
      world.t.client.graphql('mutation ($lot: ID!) { placeBid(lotId: $lot, amount: "1000") { receipt { version signer entries { leafIndex leafHash } encoded } } }', { lot: lotId }, { bearer: token }),
    );
    expect(res.body.errors).toBeUndefined();
    const served = res.body.data.placeBid.receipt;
    expect(served).toMatchObject({ version: 2, entries: [{ leafIndex: null, leafHash: expect.any(String) }] });
    const receipt = decoded(served.encoded);
    expect(receipt.entries).toEqual([{ leaf_hash: served.entries[0].leafHash }]);
    expect(receiptSignedBy(receipt, tlog().signer)).toBe(true);

    await checkpoint();
    const run = await verifyBids(receipt);
    expect(run.stdout).toMatch(/^the receipt's leaf \d+ is in the checkpoint$/m);
    expect(run.stdout).toMatch(/^OK$/m);
    expect(run.code).toBe(0);
  });

  it('answers the inclusion proof of a leaf given by its hash, in hex or base64, in REST and GraphQL', async () => {
    const lotId = await openLot();
    await bidForReceipt(world.t, world.accounts[0].keypair, lotId, '1000');
    await checkpoint();
    const size = (await world.t.client.get('/log/checkpoint')).body.data.attributes.size as number;
    const leaf = (await world.t.client.get(`/log/entries?from=0&lot_id=${lotId}`)).body.data[0].attributes as { leaf_index: number; leaf_hash: string };
    const byIndex = (await world.t.client.get(`/log/proof/inclusion?leaf_index=${leaf.leaf_index}&tree_size=${size}`)).body.data.attributes;
    for (const given of [hex(leaf.leaf_hash), encodeURIComponent(leaf.leaf_hash)]) {
      const res = await world.t.client.get(`/log/proof/inclusion?leaf_hash=${given}&tree_size=${size}`);
      expect(res.status).toBe(200);
      expect(res.body.data.attributes).toEqual(byIndex);
    }
    const gql = await world.t.client.graphql('query ($h: String!, $n: Int!) { logInclusionProof(leafHash: $h, treeSize: $n) { leafIndex treeSize hashes } }', { h: leaf.leaf_hash, n: size });
    expect(gql.body.errors).toBeUndefined();
    expect(gql.body.data.logInclusionProof).toEqual({ leafIndex: leaf.leaf_index, treeSize: size, hashes: byIndex.hashes });
  });

  it('refuses a proof by hash for a hash not in the tree (404) or not a hash (400), naming leaf_hash', async () => {
    const lotId = await openLot();
    await bidForReceipt(world.t, world.accounts[0].keypair, lotId, '1000');
    await checkpoint();
    const size = (await world.t.client.get('/log/checkpoint')).body.data.attributes.size as number;
    const cases: [string, number, string][] = [
      [`leaf_hash=${'ab'.repeat(32)}&tree_size=${size}`, 404, 'leaf_not_found'],
      [`leaf_hash=${'zz'.repeat(32)}&tree_size=${size}`, 400, 'invalid_parameter'],
      [`leaf_hash=abc&tree_size=${size}`, 400, 'invalid_parameter'],
      [`leaf_hash=${'ab'.repeat(32)}&leaf_index=0&tree_size=${size}`, 400, 'invalid_parameter'],
    ];
    for (const [query, status, code] of cases) {
      const res = await world.t.client.get(`/log/proof/inclusion?${query}`);
      expect([query, res.status, res.body.errors[0].code]).toEqual([query, status, code]);
      expect(res.body.errors[0].source).toEqual({ parameter: 'leaf_hash' });
    }
  });

  it('fails verification, with one line and exit 1, when its leaf is missing from a checkpoint signed after the promise', async () => {
    const lotId = await openLot();
    const token = await bearerFor(world.t, world.accounts[0].id);
    const res = await unnumbered(() =>
      world.t.client.graphql('mutation ($lot: ID!) { placeBid(lotId: $lot, amount: "1000") { receipt { encoded } } }', { lot: lotId }, { bearer: token }),
    );
    const receipt = decoded(res.body.data.placeBid.receipt.encoded);
    // The operator withholds the bid: its leaf, not numbered yet, never enters the log.
    await db().execute('delete from tlog_leaves where hash = decode(?, ?) and idx is null', [hex(receipt.entries[0].leaf_hash), 'hex']);
    await checkpoint();
    const size = (await world.t.client.get('/log/checkpoint')).body.data.attributes.size as number;
    const missing = `the receipt's leaf ${receipt.entries[0].leaf_hash} is missing from the checkpoint of size ${size}, served past the receipt's promise`;
    expect((await checkLog(world.t.baseUrl, { logKeys: [receipt.signer], receipt, graceSeconds: 0 })).problems).toEqual([missing]);

    // The same receipt as the bidder holds it two minutes later, past the command's grace.
    const earlier = { ...receipt, timestamp: new Date(Date.parse(receipt.timestamp) - 120_000).toISOString() };
    const late = { ...earlier, signature: tlog().key.sign(receiptMessage(earlier)).toString('base64') };
    const run = await verifyBids(late);
    expect(run.stdout.split('\n').filter((l) => l.startsWith('FAIL'))).toEqual([`FAIL ${missing}`]);
    expect(run.code).toBe(1);
  });

  it("keeps a lot's leaves in the order of its bids when an earlier round's leaves still wait for their index", async () => {
    const lotId = await openLot();
    const [a, b] = world.accounts;
    const first = await unnumbered(() => bidForReceipt(world.t, a.keypair, lotId, '1000'));
    // The counter is free again, but the first bid's leaf waits for the sequencer: the second round must not number its own ahead of it.
    await bidForReceipt(world.t, b.keypair, lotId, '1100');
    await checkpoint();
    const leaves = (await world.t.client.get(`/log/entries?from=0&lot_id=${lotId}`)).body.data.map((d: { attributes: { leaf_hash: string; data: string } }) => d.attributes);
    expect(leaves.map((l: { data: string }) => JSON.parse(l.data).amount)).toEqual(['1000.00', '1100.00']);
    expect(leaves[0].leaf_hash).toBe(first.entries[0].leaf_hash);
    expect((await checkLog(world.t.baseUrl, { logKeys: [tlog().signer], lotId })).problems).toEqual([]);
  });
});
