import { EventEmitter } from 'node:events';
import { loggable } from '../../core/loggable';
import { logger } from '../../core/logger';
import type { NotificationType } from './notifications.entity';

/** A notification as it is announced once its transaction committed. */
export interface PublishedNotification {
  id: string;
  recipient: string;
  type: NotificationType;
  typeStr: string;
  meta: Record<string, string>;
  createdAt: Date;
}

export type NotificationListener = (n: PublishedNotification) => void;

const ANY = Symbol('any recipient');

/**
 * The in-process announcement of committed notifications: the seam where GraphQL subscriptions
 * (`notificationAdded`) and a cross-instance relay (Redis) attach. A listener that throws is
 * logged and does not keep the others from hearing the notification.
 */
export class NotificationBus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publish(n: PublishedNotification): void {
    this.emitter.emit(n.recipient, n);
    this.emitter.emit(ANY, n);
  }

  /** Hears the recipient's notifications; returns the function that stops listening. */
  subscribe(recipient: string, fn: NotificationListener): () => void {
    return this.listen(recipient, fn);
  }

  /** Hears every notification (for a relay to other instances); returns the function that stops listening. */
  subscribeAll(fn: NotificationListener): () => void {
    return this.listen(ANY, fn);
  }

  private listen(event: string | symbol, fn: NotificationListener): () => void {
    const listener = (n: PublishedNotification) => {
      try {
        fn(n);
      } catch (err) {
        logger.warn({ err: loggable(err), notification: n.id }, 'a notification listener failed');
      }
    };
    this.emitter.on(event, listener);
    return () => {
      this.emitter.off(event, listener);
    };
  }
}
