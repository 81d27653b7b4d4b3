import { formatMoney } from '../../core/money';
import type { BidRow } from './bids.entity';
import type { BidGql } from './bids.types';

export const bidGql = (b: BidRow, showBidder: boolean): BidGql => ({
  id: b.id,
  lotId: b.lotId,
  amount: formatMoney(b.amount),
  bidderId: showBidder ? b.accountId : null,
  placedByProxy: b.placedByProxy,
  createdAt: b.createdAt,
});
