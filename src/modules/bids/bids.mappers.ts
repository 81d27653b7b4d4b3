import { formatMoney } from '../../core/money';
import type { Bid } from './bids.entity';
import type { BidGql } from './bids.types';

export const bidGql = (b: Bid, showBidder: boolean): BidGql => ({
  id: b.id,
  lotId: b.lotId,
  amount: formatMoney(b.amount),
  bidderId: showBidder ? b.accountId : null,
  placedByProxy: b.placedByProxy,
  createdAt: b.createdAt,
});
