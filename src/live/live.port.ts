import type { BidPlacedEvent, LotChangedEvent, NotificationEvent } from './live.topics';

/**
 * What domain services announce, once their transaction committed. Services depend on this
 * port only, never on the transport or on GraphQL: how an event reaches subscribers (in this
 * process or through Redis, over which sockets) is no business of theirs.
 */
export interface LivePublisher {
  publishBid(e: BidPlacedEvent): void;
  publishLotChanged(lotId: string): void;
  publishNotification(n: NotificationEvent): void;
  publishAccountStopped(accountId: string): void;
}

export type Unsubscribe = () => void;

/**
 * A listener gets the event and the message's key: unique per message on this instance, and the
 * same for every listener of one message, so that what they derive from it alike (a view, a
 * load, an executed result) is made once per message under an explicit key. Every listener of
 * a message gets the same event object, which it must not change.
 */
export type Listener<T> = (event: T, message: string) => void;

/** Told once when the listener may have missed events (the transport lost messages); it hears nothing more that it can trust. */
export type Lost = (error: unknown) => void;

/**
 * What subscriptions listen to. Each `on…` resolves once the listener is active, so that a
 * caller can listen first and then read the database without missing what commits in between.
 */
export interface LiveSource {
  onBid(lotId: string, fn: Listener<BidPlacedEvent>, lost?: Lost): Promise<Unsubscribe>;
  /** The bids on the lots a platform publishes. */
  onPlatformBid(platformId: string, fn: Listener<BidPlacedEvent>, lost?: Lost): Promise<Unsubscribe>;
  onLotChanged(lotId: string, fn: Listener<LotChangedEvent>, lost?: Lost): Promise<Unsubscribe>;
  onNotification(accountId: string, fn: Listener<NotificationEvent>, lost?: Lost): Promise<Unsubscribe>;
}
