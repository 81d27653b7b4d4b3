import { formatMoney } from '../../core/money';
import { rfc3339 } from '../../core/time';
import type { Resource } from '../../rest/document';
import type { Bid } from './bids.entity';

/** A bid of the history; the bidder is named only to those allowed to know it. */
export const presentBid = (b: Bid, showBidder: boolean): Resource => ({
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
