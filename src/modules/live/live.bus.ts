import { EventEmitter } from 'node:events';

/** An accepted bid as it is announced once its transaction committed (PROTOCOL.md §9, BidEvent). */
export interface BidPlacedEvent {
  id: string;
  lotId: string;
  amount: string;
  highestBid: string;
  /** Always the bidder here; subscribers hide it from those who may not see it. */
  bidderId: string;
  placedByProxy: boolean;
  createdAt: Date;
}

export type BidListener = (e: BidPlacedEvent) => void;
export type LotListener = (lotId: string) => void;

/**
 * The in-process announcement of committed lot activity: accepted bids and lot changes (state,
 * highest bid, winner, times). It is the seam where the `bidPlaced` and `lotUpdated`
 * subscriptions and a cross-instance relay attach; publishers call it after commit.
 */
export class LiveBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publishBid(e: BidPlacedEvent): void {
    this.emitter.emit(`bid:${e.lotId}`, e);
  }

  publishLotChanged(lotId: string): void {
    this.emitter.emit(`lot:${lotId}`, lotId);
  }

  onBid(lotId: string, fn: BidListener): () => void {
    return this.listen(`bid:${lotId}`, fn);
  }

  onLotChanged(lotId: string, fn: LotListener): () => void {
    return this.listen(`lot:${lotId}`, fn);
  }

  private listen<T>(event: string, fn: (v: T) => void): () => void {
    this.emitter.on(event, fn);
    return () => {
      this.emitter.off(event, fn);
    };
  }
}
