export type Settled<R> = { ok: true; value: R } | { ok: false; error: unknown };

interface Waiting<I, R> {
  item: I;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Coalesces concurrent work on one key within this process: while a batch for a key runs, the
 * items that arrive wait and then run together as the next batch. This saves round trips and
 * lock handoffs on a contested row. It is not what makes the work correct: the batch's own
 * transaction locks the row in the database, which serialises the batches of every instance.
 */
export class KeyedBatcher<I, R> {
  private readonly queues = new Map<string, Waiting<I, R>[]>();

  /**
   * `failsTheRest` says, of a batch's failure, what the items still waiting on its key answer
   * instead of running (null: they run): a failure they would meet too, after as long a wait.
   */
  constructor(
    private readonly run: (key: string, items: I[]) => Promise<Settled<R>[]>,
    private readonly maxBatch: number,
    private readonly failsTheRest: (error: unknown) => unknown = () => null,
  ) {}

  submit(key: string, item: I): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const queue = this.queues.get(key);
      if (queue) {
        queue.push({ item, resolve, reject });
        return;
      }
      const fresh: Waiting<I, R>[] = [{ item, resolve, reject }];
      this.queues.set(key, fresh);
      void this.drain(key, fresh);
    });
  }

  private async drain(key: string, queue: Waiting<I, R>[]): Promise<void> {
    while (queue.length) {
      const batch = queue.splice(0, this.maxBatch);
      try {
        const outcomes = await this.run(
          key,
          batch.map((w) => w.item),
        );
        outcomes.forEach((o, i) => (o.ok ? batch[i].resolve(o.value) : batch[i].reject(o.error)));
      } catch (err) {
        for (const w of batch) w.reject(err);
        const rest = this.failsTheRest(err);
        if (rest !== null) for (const w of queue.splice(0)) w.reject(rest);
      }
    }
    this.queues.delete(key);
  }
}
