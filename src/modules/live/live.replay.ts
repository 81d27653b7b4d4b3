import type { EntityManager } from '@mikro-orm/postgresql';
import { formatMoney } from '../../core/money';
import { rowsOf } from '../../db/query';
import { sql } from '../../db/sql';
import type { BidPlacedEvent } from '../../live/live.topics';

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
 * or twice, not 500 times (500 replays of 384 bids, each its own read, held the service for 11 s). The
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

/** The columns of a bid a replay needs, as the driver answers them. */
interface BidColumns {
  id: string;
  lot_id: string;
  account_id: string;
  amount: string;
  placed_by_proxy: boolean;
  /** Milliseconds since the epoch, as the entity's Date keeps it (the driver answers times as text). */
  created_ms: string;
  end_ms: string;
}

/** A bid's columns with the highest bid of its request and its lot's publisher. */
interface BidAtColumns extends BidColumns {
  highest: string;
  publisher_id: string;
}

/**
 * The lot's first `limit` bids after `from`, as events. `highestBid` is, as in the live events,
 * the lot's highest bid once the request that placed the bid committed: the last of the bids
 * that share its `created_at` (one request stamps all of its bids with one time; a lot's bids
 * rise with their ids), which for the last bid read may lie past the rows read. Rows, not
 * entities: a read of 385 bids made into entities held the event loop for tens of milliseconds,
 * once per read, and nothing of an entity is used.
 */
async function bidsAfter(em: EntityManager, lotId: string, from: string, limit: number): Promise<BidPlacedEvent[]> {
  const rows = await rowsOf<BidColumns>(
    em,
    sql`select id, lot_id, account_id, amount, placed_by_proxy, floor(extract(epoch from created_at) * 1000)::bigint as created_ms,
      (select floor(extract(epoch from end_time) * 1000)::bigint from lots where id = ${lotId}) as end_ms from bids where lot_id = ${lotId} and id > ${from} order by id asc limit ${limit}`,
  );
  if (!rows.length) return [];
  const tail = rows[rows.length - 1];
  let highest = formatMoney(tail.amount);
  if (rows.length === limit) {
    const [last] = await rowsOf<Pick<BidColumns, 'amount'>>(em, sql`select max(amount) as amount from bids where lot_id = ${lotId} and created_at = (select created_at from bids where id = ${tail.id})`);
    highest = formatMoney(last.amount);
  }
  const events: BidPlacedEvent[] = new Array(rows.length);
  for (let i = rows.length - 1; i >= 0; i--) {
    const row = rows[i];
    if (i < rows.length - 1 && row.created_ms !== rows[i + 1].created_ms) highest = formatMoney(row.amount);
    events[i] = { id: String(row.id), lotId: String(row.lot_id), amount: formatMoney(row.amount), highestBid: highest, bidderId: row.account_id, placedByProxy: row.placed_by_proxy, createdAt: new Date(Number(row.created_ms)), endTime: new Date(Number(row.end_ms)) };
  }
  return events;
}

/** A bid as a replay yields it, with the platform that publishes its lot (whose staff see its bidder). */
export interface PublishedBid {
  event: BidPlacedEvent;
  publisherId: string;
}

/**
 * Bids by id as a replay yields them, in one statement; ids of no bid are left out. A request's
 * bids follow one another in its lot's order (at most three a request, under the lot's lock), so
 * the highest of a bid's request is among the lot's next three bids from it.
 */
export async function bidsAt(em: EntityManager, bidIds: readonly string[]): Promise<PublishedBid[]> {
  const rows = await rowsOf<BidAtColumns>(
    em,
    sql`select b.id, b.lot_id, b.account_id, b.amount, b.placed_by_proxy, floor(extract(epoch from b.created_at) * 1000)::bigint as created_ms,
      floor(extract(epoch from l.end_time) * 1000)::bigint as end_ms, l.publisher_id,
      (select max(r.amount) from (select amount, created_at from bids where lot_id = b.lot_id and id >= b.id order by id limit 3) r where r.created_at = b.created_at) as highest
      from bids b join lots l on l.id = b.lot_id where b.id = any (${sql.array(bidIds, 'bigint')})`,
  );
  return rows.map((row) => ({
    publisherId: row.publisher_id,
    event: { id: String(row.id), lotId: String(row.lot_id), amount: formatMoney(row.amount), highestBid: formatMoney(row.highest), bidderId: row.account_id, placedByProxy: row.placed_by_proxy, createdAt: new Date(Number(row.created_ms)), endTime: new Date(Number(row.end_ms)) },
  }));
}

/** Bids all replays together push in one turn of the event loop, before it attends to I/O again. */
export const PUSHES_PER_TURN = 500;
/** Bids one replay pushes before the next replay's: their results stay among those LiveFanout keeps for the next subscriber. */
const CHUNK = 25;

interface Pushing {
  events: readonly BidPlacedEvent[];
  next: number;
  push: (e: BidPlacedEvent) => void;
  stopped: () => boolean;
  resolve: (whole: boolean) => void;
  reject: (err: unknown) => void;
}

/** Bid ids in their numeric order (they are decimal strings without leading zeros). */
const byId = (a: string, b: string) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/**
 * The turns in which replays push their bids, one queue for all of them: a turn pushes at most
 * PUSHES_PER_TURN bids, and the next turn comes by setImmediate, after the loop has read its
 * sockets (a microtask would come before). A turn per replay let 500 replays push a chunk each in
 * one pass of the loop, 12,500 frames while GET / waited behind them. Each turn serves first the
 * replays furthest behind: the replays of the subscribers that came later catch up with the
 * others, and from then on they all push one bid one after the other, whose result LiveFanout
 * executes and serialises once while it keeps it (the last few dozen bids); taken in the order
 * they came, the 46 reads of 500 subscribers each executed every bid again.
 */
export class ReplayTurns {
  private queue: Pushing[] = [];
  private scheduled = false;

  /** Pushes `events` in order through `push`, over turns; answers false if `stopped` said so before the last. */
  push(events: readonly BidPlacedEvent[], push: (e: BidPlacedEvent) => void, stopped: () => boolean): Promise<boolean> {
    if (!events.length) return Promise.resolve(true);
    return new Promise((resolve, reject) => {
      this.queue.push({ events, next: 0, push, stopped, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(this.turn);
    });
  }

  private readonly turn = (): void => {
    const queue = this.queue.sort((a, b) => byId(a.events[a.next].id, b.events[b.next].id));
    this.queue = [];
    const waiting: Pushing[] = [];
    let budget = PUSHES_PER_TURN;
    for (const pushing of queue) {
      if (budget === 0) {
        waiting.push(pushing);
        continue;
      }
      if (pushing.stopped()) {
        pushing.resolve(false);
        continue;
      }
      const end = Math.min(pushing.events.length, pushing.next + Math.min(CHUNK, budget));
      budget -= end - pushing.next;
      try {
        for (; pushing.next < end; pushing.next++) pushing.push(pushing.events[pushing.next]);
      } catch (err) {
        pushing.reject(err);
        continue;
      }
      if (pushing.next < pushing.events.length) waiting.push(pushing);
      else pushing.resolve(true);
    }
    this.queue = waiting.concat(this.queue);
    if (this.queue.length) setImmediate(this.turn);
    else this.scheduled = false;
  };
}
