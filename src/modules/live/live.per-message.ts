/**
 * What the listeners of one message derive from it alike, made by the first of them and reused
 * by the others. LiveBus calls a message's listeners one after the other with its key, so the
 * last key is all there is to remember; a key seen again after another is made anew, not wrong.
 */
export class PerMessage<T> {
  private last: { key: string; value: T } | null = null;

  get(key: string, make: () => T): T {
    if (this.last?.key !== key) this.last = { key, value: make() };
    return this.last.value;
  }
}
