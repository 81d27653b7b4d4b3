import type { Receipt } from '../../src/modules/bidlog';
import { receiptSignedBy } from '../../src/modules/bidlog/tlog.receipt';
import { createLot } from '../helpers/lots';
import { appWithPlatform } from '../helpers/world';
import { FREE_LOT, join } from '../trading/trading.helpers';

/**
 * "Every accepted bid's request gets a receipt at once" (docs/bid-log.md, "Receipts"), yet only
 * REST's header and the deprecated placeBid carried it: submitBid, placeBid's named replacement,
 * answered none, so a GraphQL bidder that followed the deprecation held nothing against the log.
 */
const world = appWithPlatform({ accounts: 1 });

const SUBMIT = `mutation ($input: SubmitBidInput!) { submitBid(input: $input) {
  userErrors { code } bids { id } receipt { origin logId timestamp entries { leafIndex leafHash } signer signature encoded } } }`;

it("answers submitBid's receipt, signed by the log key, and the same receipt to a replay of its idempotency key", async () => {
  const [bidder] = world.accounts;
  const lot = await createLot(world.t, world.platform, FREE_LOT);
  await join(world.t, bidder.keypair, lot.id);
  const input = { lotId: lot.id, amount: '1000', idempotencyKey: 'outsider-receipt-1' };
  const first = await world.t.client.as(bidder.keypair).graphql(SUBMIT, { input });
  expect(first.body.errors).toBeUndefined();
  const payload = first.body.data.submitBid;
  expect(payload.userErrors).toEqual([]);
  expect(payload.receipt).not.toBeNull();
  const receipt = JSON.parse(Buffer.from(payload.receipt.encoded, 'base64').toString('utf8')) as Receipt;
  expect(receipt.entries.map((e) => e.leaf_index)).toEqual(payload.receipt.entries.map((e: { leafIndex: number }) => e.leafIndex));
  expect(receiptSignedBy(receipt, world.t.app.services.transparencyLog.signer)).toBe(true);

  const replay = await world.t.client.as(bidder.keypair).graphql(SUBMIT, { input });
  expect(replay.body.data.submitBid.receipt).toEqual(payload.receipt);
});
