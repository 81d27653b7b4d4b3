import DataLoader from 'dataloader';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Account } from '../modules/accounts/accounts.entity';
import { Bid } from '../modules/bids/bids.entity';
import { Deposit, Participant, WinnerDetails } from '../modules/trading/trading.entity';
import { Callback, Star } from '../modules/watchlist/watchlist.entity';
import { Lot } from '../modules/lots/lots.entity';
import { unreadPerLot } from '../modules/messages/messages.listing';

function groupBy<T>(rows: T[], keyOf: (row: T) => string, keys: readonly string[]): T[][] {
  const groups = new Map<string, T[]>(keys.map((k) => [k, []]));
  for (const row of rows) groups.get(keyOf(row))?.push(row);
  return keys.map((k) => groups.get(k) as T[]);
}

/** Per-request batching: each relation of a page of lots is one query, whatever the page size. */
export function createLoaders(em: EntityManager) {
  const byLot = <T extends { lotId: string }>(entity: new () => T, orderBy: Record<string, 'asc'>) =>
    new DataLoader<string, T[]>(async (lotIds) =>
      groupBy(await em.find(entity, { lotId: { $in: [...lotIds] } } as never, { orderBy } as never), (r) => r.lotId, lotIds),
    );
  return {
    account: new DataLoader<string, Account | null>(async (ids) => {
      const rows = new Map((await em.find(Account, { id: { $in: [...ids] } })).map((a) => [a.id, a]));
      return ids.map((id) => rows.get(id) ?? null);
    }),
    participant: new DataLoader<string, Participant | null>(async (ids) => {
      const rows = new Map((await em.find(Participant, { id: { $in: [...ids] } })).map((p) => [p.id, p]));
      return ids.map((id) => rows.get(id) ?? null);
    }),
    participants: byLot(Participant, { id: 'asc' }),
    deposits: byLot(Deposit, { id: 'asc' }),
    callbacks: byLot(Callback, { id: 'asc' }),
    stars: byLot(Star, { createdAt: 'asc' }),
    bids: byLot(Bid, { id: 'asc' }),
    lot: new DataLoader<string, Lot | null>(async (ids) => {
      const rows = new Map((await em.find(Lot, { id: { $in: [...ids] } })).map((l) => [l.id, l]));
      return ids.map((id) => rows.get(id) ?? null);
    }),
    /** Keyed `<receiver>:<lot id>`: the receiver's unread messages on the lot, one query per receiver. */
    unreadMessages: new DataLoader<string, number>(async (keys) => {
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
      const rows = new Map((await em.find(WinnerDetails, { lotId: { $in: [...lotIds] } })).map((w) => [w.lotId, w]));
      return lotIds.map((id) => rows.get(id) ?? null);
    }),
  };
}
export type Loaders = ReturnType<typeof createLoaders>;
