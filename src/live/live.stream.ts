/**
 * A subscription's event stream: producers push, the GraphQL executor pulls. Unlike an async
 * generator, `return()` ends it at once even while the executor waits for the next event (a
 * client unsubscribing or a socket closing must not wait for one more bid), and runs `cleanup`
 * (unsubscribing from the bus) exactly once.
 */
export class LiveStream<T> implements AsyncIterableIterator<T> {
  private readonly queue: { value: T; key: string | null }[] = [];
  private waiting: ((r: IteratorResult<T>) => void) | null = null;
  private failure: ((err: unknown) => void) | null = null;
  private error: unknown = null;
  private done = false;
  private readonly cleanups: (() => void)[] = [];
  private consumer: ((value: T, key: string | null) => void) | null = null;

  /** The stream ended (returned, failed and read, or thrown): nothing pushed reaches anyone. */
  get ended(): boolean {
    return this.done;
  }

  /** Runs when the stream ends (at once if it has ended already). */
  onEnd(fn: () => void): void {
    if (this.done) fn();
    else this.cleanups.push(fn);
  }

  /**
   * Hands every value, those queued and those to come, to `fn` as it is pushed, instead of to
   * `next()`: a fan-out of thousands of subscribers then costs no promise per value. `next()`
   * still settles when the stream ends or fails, so that the executor learns of either.
   */
  consume(fn: (value: T, key: string | null) => void): void {
    this.consumer = fn;
    for (const { value, key } of this.queue.splice(0)) fn(value, key);
  }

  /**
   * `key`, when given, names the value for a consumer that shares work between streams: values
   * pushed with one key, on whichever stream, are equal.
   */
  push(value: T, key: string | null = null): void {
    if (this.done) return;
    if (this.consumer) {
      this.consumer(value, key);
    } else if (this.waiting) {
      const resolve = this.waiting;
      this.waiting = this.failure = null;
      resolve({ value, done: false });
    } else {
      this.queue.push({ value, key });
    }
  }

  /** Ends the stream with an error, after the events already queued. */
  fail(err: unknown): void {
    if (this.done) return;
    if (this.waiting && this.failure) {
      const reject = this.failure;
      this.waiting = this.failure = null;
      this.finish();
      reject(err);
    } else {
      this.error = err ?? new Error('stream failed');
    }
  }

  next(): Promise<IteratorResult<T>> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve({ value: queued.value, done: false });
    if (this.error !== null) {
      const err = this.error;
      this.error = null;
      this.finish();
      return Promise.reject(err);
    }
    if (this.done) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve, reject) => {
      this.waiting = resolve;
      this.failure = reject;
    });
  }

  return(): Promise<IteratorResult<T>> {
    this.queue.length = 0;
    this.finish();
    return Promise.resolve({ value: undefined, done: true });
  }

  throw(err: unknown): Promise<IteratorResult<T>> {
    this.finish();
    return Promise.reject(err);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private finish(): void {
    if (this.done) return;
    this.done = true;
    if (this.waiting) this.waiting({ value: undefined, done: true });
    this.waiting = this.failure = null;
    for (const fn of this.cleanups.splice(0)) fn();
  }
}
