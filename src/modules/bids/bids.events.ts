import { formatMoney } from '../../core/money';
import type { BidPlacedEvent } from '../../live/live.topics';
import type { BidRow } from './bids.entity';

/** The event of an accepted bid; `highestBid` and `endTime` are the lot's once its request committed. */
export function bidEvent(b: BidRow, highestBid: string, endTime?: Date): BidPlacedEvent {
  return {
    id: b.id,
    lotId: b.lotId,
    amount: formatMoney(b.amount),
    highestBid,
    bidderId: b.accountId,
    placedByProxy: b.placedByProxy,
    createdAt: b.createdAt,
    ...(endTime ? { endTime } : {}),
  };
}
