import type { Redis } from 'ioredis';

/** What a gate that may drop publications does with those it dropped. */
export interface HeldBound {
  /** The most commands held at once; past it the oldest publication held is dropped. */
  max: number;
  /** Told once the connection is ready again, or closed for good, of the publications dropped meanwhile. */
  dropped(count: number): void;
}

interface Held {
  send: () => void;
  fail: (err: Error) => void;
  /** Present for a publication: resolves it unsent. */
  drop?: () => void;
}

/**
 * The commands given to one ioredis connection, sent in the order they were given across
 * reconnections. ioredis queues commands while it is disconnected and sends them once the new
 * connection is ready, but writes a command that Redis accepts while loading (PUBLISH, SUBSCRIBE,
 * UNSUBSCRIBE) at once while the connection's ready check runs: such a command overtakes those
 * queued before it. A bid published then reached subscribers before the three published during the
 * outage; an UNSUBSCRIBE queued during it would end a SUBSCRIBE sent after it. The gate holds every
 * command while the connection is not ready, or while it still holds earlier ones, and sends them
 * in order once ioredis has sent its own queue.
 *
 * With a bound, it holds at most `max` publications: an outage of hours would otherwise keep every
 * event of those hours in memory, for subscribers that were all told `live_interrupted` and read
 * what they missed from the database.
 */
export class ReadyGate {
  private held: Held[] = [];
  private droppedSince = 0;
  private closed = false;

  constructor(
    private readonly client: Redis,
    private readonly bound?: HeldBound,
  ) {
    // Emitted on the next tick, once ioredis has resent what it queued itself.
    client.on('ready', () => this.flush());
    client.on('end', () => this.close());
  }

  /** Runs `command` now if nothing is held and the connection is ready, else once it is, after those held. */
  run<T>(command: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(closedError());
    if (this.open) return command();
    return new Promise<T>((resolve, reject) => this.hold({ send: sendOf(command, resolve, reject), fail: reject }));
  }

  /** `run` for a publication, which a bounded gate may drop rather than hold. */
  publish(command: () => Promise<void>): Promise<void> {
    if (this.closed) return Promise.reject(closedError());
    if (this.open) return command();
    return new Promise<void>((resolve, reject) => this.hold({ send: sendOf(command, resolve, reject), fail: reject, drop: resolve }));
  }

  /**
   * Settles what it holds and refuses what comes after, as the connection is closed for good.
   * ioredis emits no 'end' when it is closed between two attempts to reconnect (its socket is
   * already gone), so the gate cannot wait for it: what it held would never settle.
   */
  close(): void {
    this.closed = true;
    this.failHeld();
  }

  private get open(): boolean {
    return this.client.status === 'ready' && !this.held.length;
  }

  /** Holds a command; past the bound, drops the oldest publication held (a publisher's gate holds nothing else). */
  private hold(command: Held): void {
    this.held.push(command);
    if (!this.bound || this.held.length <= this.bound.max) return;
    const oldest = this.held.findIndex((h) => h.drop);
    if (oldest < 0) return;
    const [dropped] = this.held.splice(oldest, 1);
    this.droppedSince++;
    dropped.drop?.();
  }

  private flush(): void {
    if (this.client.status !== 'ready') return;
    const held = this.held;
    this.held = [];
    this.reportDropped();
    for (const { send } of held) send();
  }

  private failHeld(): void {
    const held = this.held;
    this.held = [];
    for (const h of held) {
      if (h.drop) {
        this.droppedSince++;
        h.drop();
      } else {
        h.fail(closedError());
      }
    }
    this.reportDropped();
  }

  private reportDropped(): void {
    if (this.droppedSince) this.bound?.dropped(this.droppedSince);
    this.droppedSince = 0;
  }
}

const closedError = () => new Error('the Redis connection was closed');

function sendOf<T>(command: () => Promise<T>, resolve: (value: T) => void, reject: (err: unknown) => void): () => void {
  return () => {
    try {
      command().then(resolve, reject);
    } catch (err) {
      reject(err);
    }
  };
}
