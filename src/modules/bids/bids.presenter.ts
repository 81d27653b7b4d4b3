import { formatMoney } from '../../core/money';
import { rfc3339 } from '../../core/time';
import type { Resource, TopLevel } from '../../rest/document';
import type { AnyReceipt } from '../bidlog';
import type { BidRow } from './bids.entity';
import type { SeenBid } from './bids.view';

/** A bid of the history; the bidder is named only to those allowed to know it. */
export const presentBid = (b: BidRow, showBidder: boolean): Resource => ({
  type: 'bids',
  id: b.id,
  attributes: {
    lot_id: Number(b.lotId),
    amount: formatMoney(b.amount),
    account_id: showBidder ? b.accountId : null,
    placed_by_proxy: b.placedByProxy,
    created_at: rfc3339(b.createdAt),
  },
});

/**
 * A bid request's answer under `Prefer: return=representation`: the bids it placed (its own, then
 * the automatic raises it caused) and their receipt, with `encoded`, the `Bid-Receipt` header's value.
 */
export const presentPlacedBids = (bids: SeenBid[], receipt: AnyReceipt | null, encoded: string | null): TopLevel => ({
  data: bids.map((s) => presentBid(s.bid, s.bidderShown)),
  meta: { receipt, bid_receipt: encoded },
});
