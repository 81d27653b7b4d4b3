import { formatMoney } from '../../core/money';
import type { BidPlacedEvent } from '../../live/live.topics';
import type { BidRow } from './bids.entity';

/** The event of an accepted bid; `highestBid` and the lot's `endTime` are as its request's commit left them. */
export function bidEvent(b: BidRow, highestBid: string, lot?: { endTime: Date; publisherId: string }): BidPlacedEvent {
  return {
    id: b.id,
    lotId: b.lotId,
    amount: formatMoney(b.amount),
    highestBid,
    bidderId: b.accountId,
    placedByProxy: b.placedByProxy,
    createdAt: b.createdAt,
    ...(lot ? { endTime: lot.endTime, publisherId: lot.publisherId } : {}),
  };
}
