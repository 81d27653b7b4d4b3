import { formatMoney } from '../../core/money';
import type { BidPlacedEvent } from '../../live/live.topics';
import type { BidRow } from './bids.entity';

/** The event of an accepted bid; `highestBid` is the lot's highest bid once its request committed. */
export function bidEvent(b: BidRow, highestBid: string): BidPlacedEvent {
  return {
    id: b.id,
    lotId: b.lotId,
    amount: formatMoney(b.amount),
    highestBid,
    bidderId: b.accountId,
    placedByProxy: b.placedByProxy,
    createdAt: b.createdAt,
  };
}
