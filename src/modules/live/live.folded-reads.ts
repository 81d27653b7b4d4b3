/** A read shared by the changes it covers, and the key its result is pushed with. */
export interface FoldedRead<T> {
  value: Promise<T>;
  key: string;
}

const ignore = () => undefined;

/**
 * Reads of a changed record, one running and one waiting at most per record: a change that
 * arrives while a read runs is covered by the read that waits to begin after it, shared by every
 * change that arrives meanwhile. Each change read the record anew, per instance: ten thousand
 * changes of one lot (a flood on Redis, or a burst of bids) took the pool's connections from
 * every request (the outside tester's probe).
 */
export class FoldedReads<T> {
  private readonly reads = new Map<string, { running: FoldedRead<T>; next: FoldedRead<T> | null }>();
  private made = 0;

  /** A read of `id` that begins after this call. */
  after(id: string, read: () => Promise<T>): FoldedRead<T> {
    const current = this.reads.get(id);
    if (!current) return this.begin(id, read);
    if (!current.next) {
      const key = this.keyOf(id);
      current.next = { key, value: current.running.value.then(ignore, ignore).then(() => this.begin(id, read, key).value) };
    }
    return current.next;
  }

  private begin(id: string, read: () => Promise<T>, key = this.keyOf(id)): FoldedRead<T> {
    const running = { value: read(), key };
    const state = { running, next: null as FoldedRead<T> | null };
    this.reads.set(id, state);
    const done = () => {
      if (this.reads.get(id) === state && !state.next) this.reads.delete(id);
    };
    running.value.then(done, done);
    return running;
  }

  private keyOf(id: string): string {
    return `read:${id}:${++this.made}`;
  }
}
