import type { Redis } from 'ioredis';

/**
 * The commands given to one ioredis connection, sent in the order they were given across
 * reconnections. ioredis queues commands while it is disconnected and sends them once the new
 * connection is ready, but writes a command that Redis accepts while loading (PUBLISH, SUBSCRIBE,
 * UNSUBSCRIBE) at once while the connection's ready check runs: such a command overtakes those
 * queued before it. A bid published then reached subscribers before the three published during the
 * outage; an UNSUBSCRIBE queued during it would end a SUBSCRIBE sent after it. The gate holds every
 * command while the connection is not ready, or while it still holds earlier ones, and sends them
 * in order once ioredis has sent its own queue.
 */
export class ReadyGate {
  private held: { send: () => void; fail: (err: Error) => void }[] = [];

  constructor(private readonly client: Redis) {
    // Emitted on the next tick, once ioredis has resent what it queued itself.
    client.on('ready', () => this.flush());
    client.on('end', () => this.failHeld());
  }

  run<T>(command: () => Promise<T>): Promise<T> {
    if (this.client.status === 'ready' && !this.held.length) return command();
    return new Promise<T>((resolve, reject) => {
      const send = () => {
        try {
          command().then(resolve, reject);
        } catch (err) {
          reject(err);
        }
      };
      this.held.push({ send, fail: reject });
    });
  }

  private flush(): void {
    if (this.client.status !== 'ready') return;
    const held = this.held;
    this.held = [];
    for (const { send } of held) send();
  }

  private failHeld(): void {
    const held = this.held;
    this.held = [];
    for (const { fail } of held) fail(new Error('the Redis connection was closed'));
  }
}
