import type { Keypair } from '@stellar/stellar-sdk';
import { checkLog } from '../../src/cli/tlog-check';
import type { Receipt } from '../../src/modules/bidlog';
import { bidForReceipt } from '../bidlog/receipt.helpers';
import { createLot } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';
import { FREE_LOT, join } from '../trading/trading.helpers';

/**
 * A receipt promises its bid in the log's next checkpoint (docs/bid-log.md, "Receipts"), and the
 * verifier is to catch "a bid withheld from later checkpoints by its receipt's deadline". It judged
 * the deadline by the served checkpoint's `created_at`, which no signature covers: the operator
 * it guards against, holding the database, withholds a bid and backdates that column (or simply
 * stops signing checkpoints), and `verify-bids --receipt` answered ok for ever.
 */
const world = appWithPlatform({ accounts: 1 });
const db = () => world.t.orm.em.fork().getConnection();
const checkpoint = () => world.t.app.services.transparencyLog.checkpointNow({ em: world.t.orm.em.fork() });
const GRACE_SECONDS = 1;
const pastGrace = () => new Promise((resolve) => setTimeout(resolve, GRACE_SECONDS * 1000 + 200));

const bid = (who: Keypair, lotId: string, amount: string): Promise<Receipt> => bidForReceipt(world.t, who, lotId, amount);

async function receiptOfNewBid(): Promise<Receipt> {
  const [bidder] = world.accounts;
  const lot = await createLot(world.t, world.platform, FREE_LOT);
  await join(world.t, bidder.keypair, lot.id);
  await checkpoint();
  return bid(bidder.keypair, lot.id, '1000');
}

describe("a receipt's bid missing from the log past the receipt's deadline", () => {
  it('is caught when the log stopped signing checkpoints after the bid', async () => {
    const receipt = await receiptOfNewBid();
    await pastGrace();
    const result = await checkLog(world.t.baseUrl, { logKeys: [receipt.signer], receipt, graceSeconds: GRACE_SECONDS });
    expect(result.problems).toEqual([expect.stringMatching(/^the receipt's leaf \d+ is missing from the checkpoint of size \d+/)]);
    expect(result.ok).toBe(false);
  });

  it("is caught when the operator drops the bid, signs a checkpoint without it and backdates the checkpoint's unsigned created_at", async () => {
    const receipt = await receiptOfNewBid();
    const [{ leaf_index: index }] = receipt.entries;
    await pastGrace();
    // As test/bidlog/tlog.test.ts's operator does: the tree rebuilt without the bid and signed anew.
    await db().execute('delete from tlog_leaves where idx >= ?', [index]);
    await db().execute('delete from tlog_nodes');
    await db().execute('delete from tlog_checkpoints');
    await db().execute('update tlog_tree set integrated = 0');
    await db().execute('update tlog_size set size = ?', [index]);
    const signed = await checkpoint();
    expect(signed?.size).toBe(index);
    await db().execute('update tlog_checkpoints set created_at = ?::timestamptz', [receipt.timestamp]);
    const result = await checkLog(world.t.baseUrl, { logKeys: [receipt.signer], receipt, graceSeconds: GRACE_SECONDS });
    expect(result.problems).toEqual([expect.stringMatching(/^the receipt's leaf \d+ is missing from the checkpoint of size \d+/)]);
  });
});
