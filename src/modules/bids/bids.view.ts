import type { Caller } from '../../core/context';
import { seesLotRow } from '../../core/policies';
import type { BidRow } from './bids.entity';

/** A bid as the caller sees it: its bidder is named only to the bidder itself and the lot's managers. */
export interface SeenBid<B extends BidRow = BidRow> {
  bid: B;
  bidderShown: boolean;
}

export function seenBids<B extends BidRow>(caller: Caller | null, lot: { organizerId: string; publisherId: string }, bids: readonly B[]): SeenBid<B>[] {
  return bids.map((bid) => ({ bid, bidderShown: seesLotRow(caller, lot, bid.accountId) }));
}
