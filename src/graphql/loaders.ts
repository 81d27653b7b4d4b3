import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Account } from '../modules/accounts/accounts.entity';
import { accountsByIds } from '../modules/accounts/accounts.sql';
import { Deposit, Participant, WinnerDetails } from '../modules/trading/trading.entity';
import { Callback, Star } from '../modules/watchlist/watchlist.entity';
import { Lot } from '../modules/lots/lots.entity';
import { unreadPerLot } from '../modules/messages/messages.listing';
import { bidsOfLots, participantsOfLots } from '../modules/lots/lots.related.sql';
import { storedLogs, type StoredLog } from '../modules/bidlog/bidlog.service';

function groupBy<T>(rows: T[], keyOf: (row: T) => string, keys: readonly string[]): T[][] {
  const groups = new Map<string, T[]>(keys.map((k) => [k, []]));
  for (const row of rows) groups.get(keyOf(row))?.push(row);
  return keys.map((k) => groups.get(k) as T[]);
}

/**
 * Per-request batching: each relation of a page of lots is one query, whatever the page size.
 * A batch is sent a tick after its keys were asked for: by then the client may have gone (`signal`).
 */
export function createLoaders(em: EntityManager, signal?: AbortSignal) {
  const byLot = <T extends { lotId: string }>(entity: new () => T, orderBy: Record<string, 'asc'>) =>
    new DataLoader<string, T[]>(async (lotIds) => {
      signal?.throwIfAborted();
      return groupBy(await em.find(entity, { lotId: { $in: [...lotIds] } } as never, { orderBy } as never), (r) => r.lotId, lotIds);
    });
  /** The relations every page of lots may show, read through the driver (lots.related.sql.ts). */
  const rawByLot = <T extends { lotId: string }>(read: (em: EntityManager, lotIds: readonly string[]) => Promise<T[]>) =>
    new DataLoader<string, T[]>(async (lotIds) => {
      signal?.throwIfAborted();
      return groupBy(await read(em, lotIds), (r) => r.lotId, lotIds);
    });
  return {
    account: new DataLoader<string, Account | null>(async (ids) => {
      signal?.throwIfAborted();
      const rows = new Map((await accountsByIds(em, ids)).map((a) => [a.id, a]));
      return ids.map((id) => rows.get(id) ?? null);
    }),
    participant: new DataLoader<string, Participant | null>(async (ids) => {
      signal?.throwIfAborted();
      const rows = new Map((await em.find(Participant, { id: { $in: [...ids] } })).map((p) => [p.id, p]));
      return ids.map((id) => rows.get(id) ?? null);
    }),
    participants: rawByLot(participantsOfLots),
    deposits: byLot(Deposit, { id: 'asc' }),
    callbacks: byLot(Callback, { id: 'asc' }),
    stars: byLot(Star, { createdAt: 'asc' }),
    bids: rawByLot(bidsOfLots),
    bidLogs: new DataLoader<string, StoredLog>(async (lotIds) => {
      signal?.throwIfAborted();
      return storedLogs(em, lotIds);
    }),
    lot: new DataLoader<string, Lot | null>(async (ids) => {
      signal?.throwIfAborted();
      const rows = new Map((await em.find(Lot, { id: { $in: [...ids] } })).map((l) => [l.id, l]));
      return ids.map((id) => rows.get(id) ?? null);
    }),
    /** Keyed `<receiver>:<lot id>`: the receiver's unread messages on the lot, one query per receiver. */
    unreadMessages: new DataLoader<string, number>(async (keys) => {
      signal?.throwIfAborted();
      const byReceiver = new Map<string, string[]>();
      for (const key of keys) {
        const [receiver, lotId] = key.split(':');
        byReceiver.set(receiver, [...(byReceiver.get(receiver) ?? []), lotId]);
      }
      const counts = new Map<string, number>();
      for (const [receiver, lotIds] of byReceiver) {
        for (const [lotId, n] of await unreadPerLot(em, receiver, lotIds)) counts.set(`${receiver}:${lotId}`, n);
      }
      return keys.map((key) => counts.get(key) ?? 0);
    }),
    winnerDetails: new DataLoader<string, WinnerDetails | null>(async (lotIds) => {
      signal?.throwIfAborted();
      const rows = new Map((await em.find(WinnerDetails, { lotId: { $in: [...lotIds] } })).map((w) => [w.lotId, w]));
      return lotIds.map((id) => rows.get(id) ?? null);
    }),
  };
}
export type Loaders = ReturnType<typeof createLoaders>;
