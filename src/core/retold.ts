/**
 * A warning that holds as long as an operator does nothing (a full disk), told at once and then
 * at most once per `ms` per key: a line per request would bury the log, and fill the disk further.
 */
export class Retold {
  private readonly told = new Map<string, { at: number; heldBack: number }>();

  constructor(private readonly ms = 60_000) {}

  /** Calls `tell` with the times `key` was held back since it was last told, unless that was within `ms`. */
  say(key: string, tell: (heldBack: number) => void): void {
    const now = Date.now();
    const last = this.told.get(key);
    if (last && now - last.at < this.ms) {
      last.heldBack++;
      return;
    }
    this.told.set(key, { at: now, heldBack: 0 });
    tell(last?.heldBack ?? 0);
  }
}
