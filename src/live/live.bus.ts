import { DomainError } from '../core/errors';
import { loggable } from '../core/loggable';
import { logger } from '../core/logger';
import type { Listener, LivePublisher, LiveSource, Lost, Unsubscribe } from './live.port';
import { TOPIC, type AccountStoppedEvent, type BidPlacedEvent, type LotChangedEvent, type NotificationEvent } from './live.topics';
import { bidOf, lotChangeOf, notificationOf, stoppedOf } from './live.messages';
import { memoryTransport, type LiveTransport } from './live.transport';

interface Channel {
  name: string;
  revive: (raw: unknown) => unknown;
  listeners: Set<{ fn: Listener<never>; lost?: Lost }>;
  active: Promise<Unsubscribe>;
  /** The transport confirmed the subscription: from then on an interruption can make it miss messages. */
  live: boolean;
}

/**
 * A subscription waits this long for the transport's confirmation. While Redis is out of reach a
 * SUBSCRIBE is held until it is back; a listener waiting for it could not be ended by its client
 * meanwhile, and an outage of hours with clients coming and going would keep every one of them.
 */
const CONFIRM_WITHIN_MS = 10_000;

const REFUSED_TOLD_EVERY_MS = 60_000;

const unconfirmed = () =>
  DomainError.of('unavailable', 'live_interrupted', 'live events are not reaching this instance (its connection to the other instances is down); subscribe again');

/** `promise`, or a refusal after `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(unconfirmed()), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/**
 * The announcement of committed live activity: accepted bids, lot changes, notifications and
 * accounts stopped by the blacklist. Publishers call it after their transaction committed; each
 * event goes through the transport once and reaches the listeners of every instance once. The
 * bus holds one transport subscription per channel and revives each message once for all of its
 * listeners.
 */
export class LiveBus implements LivePublisher, LiveSource {
  private readonly channels = new Map<string, Channel>();
  private received = 0;
  private refusedSinceTold = 0;
  private refusedToldAt = 0;

  constructor(
    private readonly transport: LiveTransport = memoryTransport(),
    /** How long a new listener waits for its subscription to be confirmed (Redis may be out of reach) before it is refused. */
    private readonly confirmWithinMs = CONFIRM_WITHIN_MS,
  ) {
    transport.onInterrupted?.(() => this.interrupt());
  }

  publishBid(e: BidPlacedEvent): void {
    this.send(TOPIC.bid(e.lotId), e);
    if (e.publisherId) this.send(TOPIC.platformBid(e.publisherId), e);
  }

  publishLotChanged(lotId: string): void {
    this.send(TOPIC.lot(lotId), { lotId } satisfies LotChangedEvent);
  }

  publishNotification(n: NotificationEvent): void {
    this.send(TOPIC.notification(n.recipient), n);
  }

  publishAccountStopped(accountId: string): void {
    this.send(TOPIC.stopped, { accountId } satisfies AccountStoppedEvent);
  }

  onBid(lotId: string, fn: Listener<BidPlacedEvent>, lost?: Lost): Promise<Unsubscribe> {
    return this.listen(TOPIC.bid(lotId), bidOf({ lotId }), fn, lost);
  }

  onPlatformBid(platformId: string, fn: Listener<BidPlacedEvent>, lost?: Lost): Promise<Unsubscribe> {
    return this.listen(TOPIC.platformBid(platformId), bidOf({ platformId }), fn, lost);
  }

  onLotChanged(lotId: string, fn: Listener<LotChangedEvent>, lost?: Lost): Promise<Unsubscribe> {
    return this.listen(TOPIC.lot(lotId), lotChangeOf(lotId), fn, lost);
  }

  onNotification(accountId: string, fn: Listener<NotificationEvent>, lost?: Lost): Promise<Unsubscribe> {
    return this.listen(TOPIC.notification(accountId), notificationOf(accountId), fn, lost);
  }

  onAccountStopped(fn: Listener<AccountStoppedEvent>): Promise<Unsubscribe> {
    return this.listen(TOPIC.stopped, stoppedOf, fn);
  }

  /** Listeners across channels: one per running subscription (and one per socket server, for stopped accounts). */
  listenerCount(): number {
    let n = 0;
    for (const channel of this.channels.values()) n += channel.listeners.size;
    return n;
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  private send(name: string, payload: object): void {
    this.transport.publish(name, payload).catch((err: unknown) => {
      logger.warn({ err: loggable(err), channel: name }, 'publishing a live event failed');
    });
  }

  private async listen<T>(name: string, revive: (raw: unknown) => unknown, fn: Listener<T>, lost?: Lost): Promise<Unsubscribe> {
    const channel = this.channels.get(name) ?? this.open(name, revive);
    // An entry of its own, so that one function listening twice is two listeners.
    const entry = { fn: fn as Listener<never>, lost };
    channel.listeners.add(entry);
    const off = () => {
      if (!channel.listeners.delete(entry) || channel.listeners.size) return;
      if (this.channels.get(name) === channel) this.channels.delete(name);
      channel.active.then(
        (end) => end(),
        () => undefined,
      );
    };
    try {
      await within(channel.active, this.confirmWithinMs);
    } catch (err) {
      off();
      throw err;
    }
    return off;
  }

  private open(name: string, revive: (raw: unknown) => unknown): Channel {
    const channel: Channel = { name, revive, listeners: new Set(), active: Promise.resolve(() => undefined), live: false };
    // Bound to its own channel: a replaced one that still hears a message has no listeners left.
    channel.active = this.transport.subscribe(name, (raw) => this.dispatch(channel, raw));
    channel.active.then(
      () => (channel.live = true),
      () => undefined,
    );
    this.channels.set(name, channel);
    return channel;
  }

  /**
   * The transport lost messages: the listeners that can be told are (a subscription ends with
   * `live_interrupted`, and its client subscribes again, with `after` for bids). Each live channel
   * is detached, so that a new listener opens a fresh subscription, which reads what it missed
   * after it is confirmed, rather than join one that missed messages. A channel still waiting for
   * its confirmation keeps its listeners: they read the database only once it is confirmed.
   */
  private interrupt(): void {
    const error = DomainError.of('unavailable', 'live_interrupted', 'live events were interrupted (the connection between instances was lost); subscribe again');
    for (const [name, channel] of [...this.channels]) {
      // A channel none of whose listeners can be told (the socket servers' stopped accounts) keeps
      // its subscription, which the transport renews once it is back: detached, its listeners would
      // still hear it, but no longer count, nor be ended with it.
      if (!channel.live || ![...channel.listeners].some((l) => l.lost)) continue;
      this.channels.delete(name);
      for (const { lost } of [...channel.listeners]) lost?.(error);
    }
  }

  /** Told once a minute at most, with how many: a flood of them would otherwise flood the log. */
  private refused(channel: Channel, err: unknown): void {
    this.refusedSinceTold++;
    if (Date.now() - this.refusedToldAt < REFUSED_TOLD_EVERY_MS) return;
    logger.warn({ err: loggable(err), channel: channel.name, dropped: this.refusedSinceTold }, 'live messages that are no event of their channel were dropped');
    this.refusedToldAt = Date.now();
    this.refusedSinceTold = 0;
  }

  private dispatch(channel: Channel, raw: unknown): void {
    if (!channel.listeners.size) return;
    let event: never;
    try {
      event = channel.revive(raw) as never;
    } catch (err) {
      // Thrown here, it would end the process from inside the Redis client: anyone who can publish on Redis could stop every instance.
      this.refused(channel, err);
      return;
    }
    const message = String(++this.received);
    for (const { fn } of channel.listeners) {
      try {
        fn(event, message);
      } catch (err) {
        logger.warn({ err: loggable(err), channel: channel.name }, 'a live listener failed');
      }
    }
  }
}
