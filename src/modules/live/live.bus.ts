import { loggable } from '../../core/loggable';
import { logger } from '../../core/logger';
import { formatMoney } from '../../core/money';
import { memoryTransport, type LiveTransport } from '../../graphql/pubsub';
import type { BidRow } from '../bids/bids.entity';
import type { NotificationBus, PublishedNotification } from '../notifications/notifications.bus';

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

/** A lot whose state, highest bid, winner, times or winner details changed. */
export interface LotChangedEvent {
  lotId: string;
}

export type Unsubscribe = () => void;

const channel = {
  bid: (lotId: string) => `bid.${lotId}`,
  lot: (lotId: string) => `lot.${lotId}`,
  notification: (accountId: string) => `notification.${accountId}`,
  stopped: 'account.stopped',
};

/**
 * Dates travel as RFC 3339 strings (JSON through Redis). The transport hands one payload object to
 * every listener of a message, so the revived event is made once per message and instance and
 * shared by the listeners, which must not change it: downstream caches (the views of LiveFeeds,
 * the results of LiveFanout) are keyed by its identity.
 */
const revived = new WeakMap<object, object>();
const revive = <T extends { createdAt: Date }>(raw: unknown): T => {
  const e = raw as T;
  let copy = revived.get(e) as T | undefined;
  if (!copy) {
    copy = { ...e, createdAt: new Date(e.createdAt) };
    revived.set(e, copy);
  }
  return copy;
};

/**
 * The announcement of committed live activity: accepted bids, lot changes, notifications and
 * accounts stopped by the blacklist. Publishers call it after their transaction committed; each
 * event goes through the transport once and reaches the listeners of every instance once. The
 * `on…` methods resolve once the listener is active, so that a caller can subscribe first and
 * then read the database without missing what commits in between.
 */
export class LiveBus {
  constructor(private readonly transport: LiveTransport = memoryTransport()) {}

  publishBid(e: BidPlacedEvent): void {
    this.send(channel.bid(e.lotId), e);
  }

  publishLotChanged(lotId: string): void {
    this.send(channel.lot(lotId), { lotId } satisfies LotChangedEvent);
  }

  publishNotification(n: PublishedNotification): void {
    this.send(channel.notification(n.recipient), n);
  }

  /** An account was blacklisted as stopped: every instance closes its sockets (PROTOCOL.md §3.4). */
  publishAccountStopped(accountId: string): void {
    this.send(channel.stopped, { accountId });
  }

  /** Forwards every notification committed in this process to the subscribers of every instance. */
  relay(notifications: NotificationBus): Unsubscribe {
    return notifications.subscribeAll((n) => this.publishNotification(n));
  }

  /** The listener gets the event object, one per bid, shared by the listeners of this instance. */
  onBid(lotId: string, fn: (e: BidPlacedEvent) => void): Promise<Unsubscribe> {
    return this.listen(channel.bid(lotId), (raw) => fn(revive<BidPlacedEvent>(raw)));
  }

  /** The listener gets the event object, one per change, shared by the listeners of this instance. */
  onLotChanged(lotId: string, fn: (e: LotChangedEvent) => void): Promise<Unsubscribe> {
    return this.listen(channel.lot(lotId), (raw) => fn(raw as LotChangedEvent));
  }

  onNotification(accountId: string, fn: (n: PublishedNotification) => void): Promise<Unsubscribe> {
    return this.listen(channel.notification(accountId), (raw) => fn(revive<PublishedNotification>(raw)));
  }

  onAccountStopped(fn: (accountId: string) => void): Promise<Unsubscribe> {
    return this.listen(channel.stopped, (raw) => fn((raw as { accountId: string }).accountId));
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  private send(name: string, payload: object): void {
    this.transport.publish(name, payload).catch((err: unknown) => {
      logger.warn({ err: loggable(err), channel: name }, 'publishing a live event failed');
    });
  }

  private listen(name: string, fn: (raw: unknown) => void): Promise<Unsubscribe> {
    return this.transport.subscribe(name, (raw) => {
      try {
        fn(raw);
      } catch (err) {
        logger.warn({ err: loggable(err), channel: name }, 'a live listener failed');
      }
    });
  }
}
