import type { EntityManager } from '@mikro-orm/postgresql';
import { formatMoney } from '../../core/money';
import { rowsOf } from '../../db/query';
import { sql } from '../../db/sql';
import type { BidPlacedEvent } from '../../live/live.topics';
import { Bid } from '../bids/bids.entity';
import { bidEvent } from '../bids/bids.events';

/** The bids a replay yields, in order, and whether more were placed after them. */
export interface Replayed {
  events: BidPlacedEvent[];
  truncated: boolean;
}

interface Wanted {
  from: bigint;
  em: () => EntityManager;
  resolve: (replayed: Replayed) => void;
  reject: (err: unknown) => void;
}

interface LotReads {
  waiting: Wanted[];
  reading: boolean;
}

/**
 * The reads behind `bidPlaced(after:)`, shared: 500 subscribers replaying one lot read it once
 * or twice, not 500 times (issue 26: 500 replays of 384 bids held the service for 11 s). The
 * replays asked for while a lot is being read wait for the next read of it, which serves them
 * all from the lowest `after`: a read may serve only those who listened before it began, or it
 * could miss a bid announced between their listening and its snapshot. Each replay holds at
 * most `max` bids; the events are shared by the replays, which must not change them.
 */
export class BidReplays {
  private readonly lots = new Map<string, LotReads>();
  /** Reads of the database so far (the metrics count them). */
  reads = 0;

  constructor(private readonly max: number) {}

  /** The lot's bids after `from` (at most `max`), read after this call; `em` makes the manager a read may use. */
  read(em: () => EntityManager, lotId: string, from: bigint): Promise<Replayed> {
    return new Promise((resolve, reject) => {
      let lot = this.lots.get(lotId);
      if (!lot) {
        lot = { waiting: [], reading: false };
        this.lots.set(lotId, lot);
      }
      lot.waiting.push({ from, em, resolve, reject });
      if (!lot.reading) void this.drain(lotId, lot);
    });
  }

  private async drain(lotId: string, lot: LotReads): Promise<void> {
    lot.reading = true;
    while (lot.waiting.length) {
      const batch = lot.waiting.splice(0);
      const from = batch.reduce((low, w) => (w.from < low ? w.from : low), batch[0].from);
      // One more than a replay holds: whether more were placed shows without reading them all.
      const limit = this.max + 1;
      let rows: BidPlacedEvent[];
      this.reads++;
      try {
        rows = await bidsAfter(batch[0].em(), lotId, String(from), limit);
      } catch (err) {
        for (const w of batch) w.reject(err);
        continue;
      }
      const reachedEnd = rows.length < limit;
      for (const w of batch) {
        const after = w.from === from ? rows : rows.filter((e) => BigInt(e.id) > w.from);
        // A later `after` whose bids go on past the rows read waits for a read of its own.
        if (after.length > this.max) w.resolve({ events: after.slice(0, this.max), truncated: true });
        else if (reachedEnd) w.resolve({ events: after, truncated: false });
        else lot.waiting.push(w);
      }
    }
    lot.reading = false;
    this.lots.delete(lotId);
  }
}

/**
 * The lot's first `limit` bids after `from`, as events. `highestBid` is, as in the live events,
 * the lot's highest bid once the request that placed the bid committed: the last of the bids
 * that share its `created_at` (one request stamps all of its bids with one time; a lot's bids
 * rise with their ids), which for the last bid read may lie past the rows read.
 */
async function bidsAfter(em: EntityManager, lotId: string, from: string, limit: number): Promise<BidPlacedEvent[]> {
  const rows = await em.find(Bid, { lotId, id: { $gt: from } }, { orderBy: { id: 'asc' }, limit });
  if (!rows.length) return [];
  const tail = rows[rows.length - 1];
  let highest = formatMoney(tail.amount);
  if (rows.length === limit) {
    const [last] = await rowsOf<{ amount: string }>(em, sql`select max(amount) as amount from bids where lot_id = ${lotId} and created_at = (select created_at from bids where id = ${tail.id})`);
    highest = formatMoney(last.amount);
  }
  const events: BidPlacedEvent[] = new Array(rows.length);
  for (let i = rows.length - 1; i >= 0; i--) {
    if (i < rows.length - 1 && rows[i].createdAt.getTime() !== rows[i + 1].createdAt.getTime()) highest = formatMoney(rows[i].amount);
    events[i] = bidEvent(rows[i], highest);
  }
  return events;
}
