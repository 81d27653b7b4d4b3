import { Keypair } from '@stellar/stellar-sdk';
import { Client } from 'pg';
import type { AnyReceipt } from '../../src/modules/bidlog/tlog.receipt';
import { receiptSignedBy, receiptVersion } from '../../src/modules/bidlog/tlog.receipt';
import { verifyInclusion } from '../../src/modules/bidlog/tlog.merkle';
import { startTestApp, type TestApp } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createAccount, createPlatform, type CreatedAccount } from '../helpers/factories';
import { createLot } from '../helpers/lots';
import { FREE_LOT, join } from '../trading/trading.helpers';

// A bid round that numbered its leaves (it held the log's counter row) and whose COMMIT then gets
// no answer: the database holds it in a deferred trigger, as a stalled disk or server would, while
// another instance takes bids on another lot (docs/bid-log.md, "Concurrency"). The frozen bid is
// answered outcome_unknown; the other bids are answered, each with a receipt the next checkpoint
// proves; no index is given twice, whichever way the frozen commit ends.
const FROZEN_S = 5;
const logKey = Keypair.random();
let db: TestDatabase;
let frozenSide: TestApp;
let other: TestApp;
let admin: Client;
let bidder: CreatedAccount;
/** Bids on the other lot: a bidder of its own, whose account the frozen round does not hold. */
let otherBidder: CreatedAccount;
let frozenLot: string;
let otherLot: string;

beforeAll(async () => {
  db = await createTestDatabase();
  const env = { MASTER_SEED: Keypair.random().secret(), LOG_SIGNING_SEED: logKey.secret() };
  // This instance gives up on an unanswered COMMIT after 1 s; the other's statements wait out the freeze.
  frozenSide = await startTestApp({ ...env, DB_ANSWER_TIMEOUT: '1' }, db);
  other = await startTestApp({ ...env, DB_ANSWER_TIMEOUT: String(FROZEN_S * 2) }, db);
  admin = new Client({ connectionString: db.url });
  await admin.connect();
  const platform = await createPlatform(frozenSide);
  bidder = await createAccount(frozenSide, platform);
  otherBidder = await createAccount(frozenSide, platform);
  frozenLot = (await createLot(frozenSide, platform, FREE_LOT)).id;
  otherLot = (await createLot(frozenSide, platform, FREE_LOT)).id;
  await join(frozenSide, bidder.keypair, frozenLot);
  await join(frozenSide, otherBidder.keypair, otherLot);
  await admin.query(`create function test_freeze() returns trigger language plpgsql as $$ begin perform pg_sleep(${FROZEN_S}); return null; end $$`);
}, 60_000);

afterAll(async () => {
  await admin?.end();
  await frozenSide?.close();
  await other?.close();
  await db?.drop();
});

afterEach(() => admin.query('drop trigger if exists freeze_numbered on tlog_leaves'));

/** Freezes the COMMIT of a round of the frozen lot that numbered its own leaves: after the numbering, before the commit's answer. */
const freezeNumberedCommits = () =>
  admin.query(
    `create constraint trigger freeze_numbered after insert on tlog_leaves deferrable initially deferred
       for each row when (new.idx is not null and new.lot_id = ${frozenLot}) execute function test_freeze()`,
  );

const amounts = new Map<string, number>();
const bid = (t: TestApp, lotId: string) => {
  amounts.set(lotId, (amounts.get(lotId) ?? 1000) + 100);
  return t.client.as((lotId === otherLot ? otherBidder : bidder).keypair).post(`/lots/${lotId}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount: String(amounts.get(lotId)) } } });
};
const receiptOf = (res: { headers: Record<string, unknown> }) => JSON.parse(Buffer.from(res.headers['bid-receipt'] as string, 'base64').toString('utf8')) as AnyReceipt;
const b64 = (h: string) => Buffer.from(h, 'base64');

/** Until the frozen round's session sleeps in its COMMIT. */
async function frozenInCommit(): Promise<void> {
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    const { rows } = await admin.query(`select 1 from pg_stat_activity where datname = current_database() and wait_event = 'PgSleep' and pid <> pg_backend_pid()`);
    if (rows.length) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('the round never reached its COMMIT');
}

/** Every leaf has one index, none given twice, none skipped, and the counter says as many. */
async function expectWholeLog(): Promise<void> {
  const { rows } = await admin.query<{ leaves: number; numbered: number; distinct: number; top: number | null; size: number }>(
    `select count(*)::int as leaves, count(idx)::int as numbered, count(distinct idx)::int as distinct, max(idx)::int as top, (select size::int from tlog_size) as size from tlog_leaves`,
  );
  expect(rows[0]).toEqual({ leaves: rows[0].leaves, numbered: rows[0].leaves, distinct: rows[0].leaves, top: rows[0].leaves - 1, size: rows[0].leaves });
}

/** Each receipt's leaves, by index or by hash, proved in the checkpoint signed next. */
async function expectProvedInNextCheckpoint(receipts: AnyReceipt[]): Promise<void> {
  await other.app.services.transparencyLog.checkpointNow({ em: other.orm.em.fork() });
  const latest = (await other.client.get('/log/checkpoint')).body.data.attributes as { size: number; root_hash: string };
  for (const r of receipts) {
    expect(receiptSignedBy(r, logKey.publicKey())).toBe(true);
    for (const e of r.entries) {
      const by = 'leaf_index' in e ? `leaf_index=${e.leaf_index}` : `leaf_hash=${encodeURIComponent(e.leaf_hash)}`;
      const proof = (await other.client.get(`/log/proof/inclusion?${by}&tree_size=${latest.size}`)).body.data.attributes as { leaf_index: number; hashes: string[] };
      expect(verifyInclusion(proof.leaf_index, latest.size, b64(e.leaf_hash), proof.hashes.map(b64), b64(latest.root_hash))).toBe(true);
    }
  }
}

const bidsOf = async (lotId: string) => (await admin.query<{ id: string }>('select id::text from bids where lot_id = $1', [lotId])).rows.length;

/** Bids on the other lot, through the other instance, while the frozen round sleeps; their receipts. */
async function bidsMeanwhile(count: number): Promise<AnyReceipt[]> {
  const receipts: AnyReceipt[] = [];
  for (let i = 0; i < count; i++) {
    const res = await bid(other, otherLot);
    expect({ status: res.status, errors: res.body?.errors }).toEqual({ status: 204, errors: undefined });
    receipts.push(receiptOf(res));
  }
  return receipts;
}

describe('a bid round frozen between the numbering of its leaves and its commit', () => {
  it('answers the frozen bid outcome_unknown; the commit lands, and every leaf and receipt holds in the next checkpoint', async () => {
    await freezeNumberedCommits();
    const before = await bidsOf(frozenLot);
    const frozen = bid(frozenSide, frozenLot);
    await frozenInCommit();
    const receipts = await bidsMeanwhile(3);
    const res = await frozen;
    expect({ status: res.status, code: res.body?.errors?.[0]?.code, receipt: res.headers['bid-receipt'] }).toEqual({ status: 503, code: 'outcome_unknown', receipt: undefined });
    // The server finished the COMMIT it had been sent: the bid was kept, as "unknown" allowed.
    const deadline = Date.now() + (FROZEN_S + 5) * 1000;
    while ((await bidsOf(frozenLot)) === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    expect(await bidsOf(frozenLot)).toBe(before + 1);
    // The other bids waited for the log's counter row no longer than RECEIPT_WAIT_MS (2 s): the first, at least, was receipted by hash.
    expect(receipts.some((r) => receiptVersion(r) === 2)).toBe(true);
    await expectWholeLog();
    await expectProvedInNextCheckpoint(receipts);
  }, 60_000);

  it('gives the indexes of a frozen round whose commit is lost to later leaves once only, and answers the bid outcome_unknown', async () => {
    await freezeNumberedCommits();
    const before = await bidsOf(frozenLot);
    const frozen = bid(frozenSide, frozenLot);
    await frozenInCommit();
    const meanwhile = bidsMeanwhile(3);
    // The server goes away in the middle of the COMMIT: the transaction, its numbering with it, is rolled back.
    await new Promise((r) => setTimeout(r, 500));
    await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and wait_event = 'PgSleep' and pid <> pg_backend_pid()`);
    const res = await frozen;
    expect({ status: res.status, code: res.body?.errors?.[0]?.code, receipt: res.headers['bid-receipt'] }).toEqual({ status: 503, code: 'outcome_unknown', receipt: undefined });
    const receipts = await meanwhile;
    expect(await bidsOf(frozenLot)).toBe(before);
    await expectWholeLog();
    await expectProvedInNextCheckpoint(receipts);
    // A bid on the lot goes on from there, numbered after every leaf before it.
    await admin.query('drop trigger freeze_numbered on tlog_leaves');
    const next = await bid(frozenSide, frozenLot);
    expect(next.status).toBe(204);
    await expectWholeLog();
    await expectProvedInNextCheckpoint([receiptOf(next)]);
  }, 60_000);
});
