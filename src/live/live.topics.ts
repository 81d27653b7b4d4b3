/**
 * The topics of live delivery and what each carries. Payloads travel as JSON (through Redis), so
 * they hold strings, numbers, booleans and plain objects; `createdAt` is revived on arrival.
 */

/** An accepted bid as it is announced once its transaction committed (BidEvent). */
export interface BidPlacedEvent {
  id: string;
  lotId: string;
  amount: string;
  highestBid: string;
  /** Always the bidder here; subscribers hide it from those who may not see it. */
  bidderId: string;
  placedByProxy: boolean;
  createdAt: Date;
  /**
   * The lot's end once the request that placed the bid committed: later than before when soft
   * close moved it. A replayed bid carries the lot's end when it is replayed.
   */
  endTime?: Date;
  /** The platform that publishes the lot: the bid is announced to its staff too (`platformActivity`). */
  publisherId?: string;
}

/** A lot whose state, highest bid, winner, times or winner details changed. */
export interface LotChangedEvent {
  lotId: string;
}

/** A notification as it is announced once its transaction committed. */
export interface NotificationEvent {
  id: string;
  recipient: string;
  type: number;
  typeStr: string;
  meta: Record<string, string>;
  createdAt: Date;
}

/** An account blacklisted as stopped: every instance closes its sockets. */
export interface AccountStoppedEvent {
  accountId: string;
}

export const TOPIC = {
  bid: (lotId: string) => `bid.${lotId}`,
  lot: (lotId: string) => `lot.${lotId}`,
  notification: (accountId: string) => `notification.${accountId}`,
  platformBid: (platformId: string) => `platform.${platformId}.bid`,
  stopped: 'account.stopped',
};
