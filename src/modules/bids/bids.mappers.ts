import { formatMoney } from '../../core/money';
import type { SeenBid } from './bids.view';
import type { BidGql } from './bids.types';

export const bidGql = ({ bid: b, bidderShown }: SeenBid): BidGql => ({
  id: b.id,
  lotId: b.lotId,
  amount: formatMoney(b.amount),
  bidderId: bidderShown ? b.accountId : null,
  placedByProxy: b.placedByProxy,
  createdAt: b.createdAt,
});
