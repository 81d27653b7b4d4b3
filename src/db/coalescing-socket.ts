import { Socket } from 'node:net';

type Write = Socket['write'];

/**
 * The socket of a pool's connection, whose writes of one tick leave in one system call. In
 * pipeline mode node-postgres writes each statement as soon as it is queued, corked only around
 * its own messages: a round of seven statements took seven `writev` calls (a quarter of the
 * process's CPU in a profile of rounds), where one carries them all.
 */
export class CoalescingSocket extends Socket {
  private corked = false;

  private readonly coalescing = ((...args: Parameters<Write>) => {
    if (!this.corked) {
      this.corked = true;
      this.cork();
      process.nextTick(() => {
        this.corked = false;
        this.uncork();
      });
    }
    return (Socket.prototype.write as (...a: unknown[]) => boolean).apply(this, args);
  }) as Write;

  override connect(...args: unknown[]): this {
    (Socket.prototype.connect as (...a: unknown[]) => this).apply(this, args);
    // `connect` gives the socket its own `write` back (an ended socket's is replaced): ours goes after it.
    this.write = this.coalescing;
    return this;
  }
}
