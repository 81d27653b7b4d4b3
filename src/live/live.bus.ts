import { loggable } from '../core/loggable';
import { logger } from '../core/logger';
import type { Listener, LivePublisher, LiveSource, Unsubscribe } from './live.port';
import { TOPIC, type AccountStoppedEvent, type BidPlacedEvent, type LotChangedEvent, type NotificationEvent } from './live.topics';
import { memoryTransport, type LiveTransport } from './live.transport';

interface Channel {
  name: string;
  revive: (raw: unknown) => unknown;
  listeners: Set<{ fn: Listener<never> }>;
  active: Promise<Unsubscribe>;
}

// Dates travel as RFC 3339 strings through Redis.
const withDate = (raw: unknown): unknown => {
  const e = raw as { createdAt: Date | string };
  return { ...e, createdAt: new Date(e.createdAt) };
};
const asIs = (raw: unknown): unknown => raw;

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

  constructor(private readonly transport: LiveTransport = memoryTransport()) {}

  publishBid(e: BidPlacedEvent): void {
    this.send(TOPIC.bid(e.lotId), e);
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

  onBid(lotId: string, fn: Listener<BidPlacedEvent>): Promise<Unsubscribe> {
    return this.listen(TOPIC.bid(lotId), withDate, fn);
  }

  onLotChanged(lotId: string, fn: Listener<LotChangedEvent>): Promise<Unsubscribe> {
    return this.listen(TOPIC.lot(lotId), asIs, fn);
  }

  onNotification(accountId: string, fn: Listener<NotificationEvent>): Promise<Unsubscribe> {
    return this.listen(TOPIC.notification(accountId), withDate, fn);
  }

  onAccountStopped(fn: Listener<AccountStoppedEvent>): Promise<Unsubscribe> {
    return this.listen(TOPIC.stopped, asIs, fn);
  }

  close(): Promise<void> {
    return this.transport.close();
  }

  private send(name: string, payload: object): void {
    this.transport.publish(name, payload).catch((err: unknown) => {
      logger.warn({ err: loggable(err), channel: name }, 'publishing a live event failed');
    });
  }

  private async listen<T>(name: string, revive: (raw: unknown) => unknown, fn: Listener<T>): Promise<Unsubscribe> {
    const channel = this.channels.get(name) ?? this.open(name, revive);
    // An entry of its own, so that one function listening twice is two listeners.
    const entry = { fn: fn as Listener<never> };
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
      await channel.active;
    } catch (err) {
      off();
      throw err;
    }
    return off;
  }

  private open(name: string, revive: (raw: unknown) => unknown): Channel {
    const channel: Channel = { name, revive, listeners: new Set(), active: Promise.resolve(() => undefined) };
    // Bound to its own channel: a replaced one that still hears a message has no listeners left.
    channel.active = this.transport.subscribe(name, (raw) => this.dispatch(channel, raw));
    this.channels.set(name, channel);
    return channel;
  }

  private dispatch(channel: Channel, raw: unknown): void {
    if (!channel.listeners.size) return;
    const event = channel.revive(raw) as never;
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
