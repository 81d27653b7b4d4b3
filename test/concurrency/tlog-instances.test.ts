import { Keypair } from '@stellar/stellar-sdk';
import type { Receipt } from '../../src/modules/bidlog';
import { receiptSignedBy, receiptVersion, type AnyReceipt } from '../../src/modules/bidlog/tlog.receipt';
import { verifyInclusion } from '../../src/modules/bidlog/tlog.merkle';
import { parseLeaf, type BidLeaf } from '../../src/modules/bidlog/tlog.leaves';
import { ParticipantState } from '../../src/modules/trading/trading.entity';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';
import { instanceFor, startCluster, type Cluster } from './instances';

// The transparency log's appends from three instances on one database at once (docs/bid-log.md,
// "Concurrency"): rounds insert their leaves without a shared lock and each instance's sequencer
// numbers what committed; the log must come out whole all the same.
const INSTANCES = 3;
const LOTS = 8;
const ACCOUNTS = 6;
const logKey = Keypair.random();

let cluster: Cluster;
let accounts: CreatedAccount[];
let lots: string[];

beforeAll(async () => {
  cluster = await startCluster(INSTANCES, { LOG_SIGNING_SEED: logKey.secret() });
  const t = cluster.instances[0];
  const platform = await createPlatform(t);
  accounts = await Promise.all(Array.from({ length: ACCOUNTS }, () => createAccount(t, platform)));
  lots = [];
  for (let i = 0; i < LOTS; i++) lots.push((await createLot(t, platform, { ...ENG_LOT, min_step: '1', max_step: '100000' })).id);
  const values = lots.flatMap((lot) => accounts.map((a) => `(${lot}, '${a.id}', ${ParticipantState.Pending})`)).join(', ');
  await cluster.query(`insert into participants (lot_id, account_id, state) values ${values}`);
}, 180_000);
afterAll(() => cluster?.close());

const b64 = (h: string) => Buffer.from(h, 'base64');
/** An amount of two decimals in cents, compared exactly. */
const cents = (amount: string) => BigInt(amount.replace('.', ''));

/** Every account bids on every lot at once, spread over the instances; answers the receipts of the accepted bids. */
async function wave(base: number): Promise<Receipt[]> {
  const sent = lots.flatMap((lot, l) =>
    accounts.map(async (a, k) => {
      const client = instanceFor(cluster, l * ACCOUNTS + k).client.as(a.keypair);
      const res = await client.post(`/lots/${lot}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount: String(base + 10 * k) } } });
      // A bid that arrives after a higher one of its lot is refused, as bid_too_low; nothing else.
      expect([204, 'bid_too_low']).toContain(res.status === 204 ? 204 : res.body?.errors?.[0]?.code);
      return res.status === 204 ? (JSON.parse(b64(res.headers['bid-receipt'] as string).toString('utf8')) as Receipt) : null;
    }),
  );
  return (await Promise.all(sent)).filter((r): r is Receipt => r !== null);
}

/**
 * The lot's leaves, read as an outsider reads them, follow its bid history: its chain's entries
 * in their order, amounts strictly rising.
 */
async function expectLeavesInBidOrder(lot: string): Promise<void> {
  const t = cluster.instances[2];
  const history = (await t.client.get(`/lots/${lot}/bid_log`)).body.data.attributes.entries as { bid_id: string; amount: string }[];
  const leaves = ((await t.client.get(`/log/entries?from=0&lot_id=${lot}`)).body.data as { attributes: { leaf_index: number; data: string } }[]).map((e) => e.attributes);
  expect(leaves.length).toBe(history.length);
  expect(history.length).toBeGreaterThan(1);
  const bids = leaves.map((l) => parseLeaf(l.data) as BidLeaf);
  expect(bids.map((b) => [b.bid_id, b.amount])).toEqual(history.map((h) => [h.bid_id, h.amount]));
  for (let i = 1; i < bids.length; i++) {
    expect(leaves[i].leaf_index).toBeGreaterThan(leaves[i - 1].leaf_index);
    expect(cents(bids[i].amount) > cents(bids[i - 1].amount)).toBe(true);
  }
}

describe('the transparency log appended by three instances at once', () => {
  it("numbers every leaf once, without a gap, in each lot's bid order, and each receipt is proved in the next checkpoint", async () => {
    const receipts: Receipt[] = [];
    for (const base of [1000, 2000, 3000]) {
      // The checkpoint job of every instance runs meanwhile, as it does every few seconds.
      const [sent] = await Promise.all([wave(base), ...cluster.instances.map((t) => t.app.services.transparencyLog.checkpointNow({ em: t.orm.em.fork() }))]);
      receipts.push(...sent);
    }
    const [counts] = await cluster.query<{ leaves: string; numbered: string; distinct: string; top: string; size: string; bids: string; bid_leaves: string }>(
      `select count(*) as leaves, count(idx) as numbered, count(distinct idx) as distinct, max(idx) as top,
              (select size from tlog_size) as size, (select count(*) from bids) as bids, count(*) filter (where kind = 'bid') as bid_leaves
         from tlog_leaves`,
    );
    expect(Number(counts.numbered)).toBe(Number(counts.leaves));
    expect(Number(counts.distinct)).toBe(Number(counts.leaves));
    expect(Number(counts.top)).toBe(Number(counts.leaves) - 1);
    expect(Number(counts.size)).toBe(Number(counts.leaves));
    expect(Number(counts.bid_leaves)).toBe(Number(counts.bids));

    const entries = receipts.flatMap((r) => r.entries);
    expect(entries.length).toBe(Number(counts.bids));
    expect(new Set(entries.map((e) => e.leaf_index)).size).toBe(entries.length);
    const t = cluster.instances[1];
    const checkpoint = await t.app.services.transparencyLog.checkpointNow({ em: t.orm.em.fork() });
    const latest = (await t.client.get('/log/checkpoint')).body.data.attributes as { size: number; root_hash: string };
    expect(checkpoint === null || checkpoint.size === latest.size).toBe(true);
    expect(latest.size).toBe(Number(counts.leaves));
    // Whichever instance took and numbered each bid.
    for (const lot of lots) await expectLeavesInBidOrder(lot);
    for (const r of receipts) {
      expect(receiptSignedBy(r, logKey.publicKey())).toBe(true);
      for (const e of r.entries) {
        const proof = (await t.client.get(`/log/proof/inclusion?leaf_index=${e.leaf_index}&tree_size=${latest.size}`)).body.data.attributes.hashes as string[];
        expect(verifyInclusion(e.leaf_index, latest.size, b64(e.leaf_hash), proof.map(b64), b64(latest.root_hash))).toBe(true);
      }
    }
  }, 240_000);

  it("numbers a lot's bid after its earlier one that still waits for the sequencer, though the counter row is free", async () => {
    const [first, second] = cluster.instances;
    const lot = (await createLot(first, (await createPlatform(first)), { ...ENG_LOT, min_step: '1', max_step: '100000' })).id;
    await cluster.query(`insert into participants (lot_id, account_id, state) values ${accounts.map((a) => `(${lot}, '${a.id}', ${ParticipantState.Pending})`).join(', ')}`);
    const place = (t: typeof first, who: CreatedAccount, amount: string) =>
      t.client.as(who.keypair).post(`/lots/${lot}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount } } });
    // Another writer holds the log's counter row: the first bid's round leaves its leaf to the sequencer.
    await cluster.query('begin');
    await cluster.query('select from tlog_size for update');
    // Sent now (the client's request goes out when awaited or chained), answered later.
    const early = place(first, accounts[0], '1000').then((res) => res);
    // Its request is answered by leaf hash once RECEIPT_WAIT_MS passed; its sequencer's session, still
    // waiting for the row, dies (its instance stopped, say): the leaf waits for a later run.
    const answered = await early;
    expect(answered.status).toBe(204);
    expect(receiptVersion(JSON.parse(b64(answered.headers['bid-receipt'] as string).toString('utf8')) as AnyReceipt)).toBe(2);
    const killed = await cluster.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`);
    expect(killed).toHaveLength(1);
    expect((await cluster.query<{ n: number }>(`select count(*)::int as n from tlog_leaves where lot_id = ${lot} and idx is null`))[0].n).toBe(1);
    await cluster.query('commit');
    // The row is free now; the lot's next bid, through another instance, must still follow the first.
    expect((await place(second, accounts[1], '1010')).status).toBe(204);
    await second.app.services.transparencyLog.checkpointNow({ em: second.orm.em.fork() });
    await expectLeavesInBidOrder(lot);
  }, 60_000);
});
