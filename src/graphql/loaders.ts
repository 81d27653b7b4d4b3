import DataLoader from 'dataloader';
import type { RequestContext } from '../core/context';
import type { ListWindow } from '../core/list-window';
import type { Services } from '../services';

function groupBy<T>(rows: T[], keyOf: (row: T) => string, keys: readonly string[]): T[][] {
  const groups = new Map<string, T[]>(keys.map((k) => [k, []]));
  for (const row of rows) groups.get(keyOf(row))?.push(row);
  return keys.map((k) => groups.get(k) as T[]);
}

/**
 * Per-request batching: each relation of a page of lots is one query, whatever the page size.
 * Every batch is a method of the service that owns the rows, which answers them as the caller
 * may see them or leaves that to the service method the resolver shows them through.
 * A batch is sent a tick after its keys were asked for: by then the client may have gone (`signal`).
 */
export function createLoaders(ctx: RequestContext, services: Services, signal?: AbortSignal) {
  const batch = <V>(read: (keys: readonly string[]) => Promise<V[]>) =>
    new DataLoader<string, V>(async (keys) => {
      signal?.throwIfAborted();
      return read(keys);
    });
  const one = <T>(read: (keys: readonly string[]) => Promise<T[]>, keyOf: (row: T) => string) =>
    batch<T | null>(async (keys) => {
      const rows = new Map((await read(keys)).map((r) => [keyOf(r), r]));
      return keys.map((k) => rows.get(k) ?? null);
    });
  const byLot = <T extends { lotId: string }>(read: (lotIds: readonly string[]) => Promise<T[]>) => batch(async (lotIds) => groupBy(await read(lotIds), (r) => r.lotId, lotIds));
  /** A loader per value of a field's size argument: the rows each key answers depend on it. */
  const perBound = <V>(make: (bound: number) => DataLoader<string, V>) => {
    const made = new Map<number, DataLoader<string, V>>();
    return (bound: number) => {
      let loader = made.get(bound);
      if (!loader) made.set(bound, (loader = make(bound)));
      return loader;
    };
  };
  /** A loader per window of a connection's arguments: the accounts of a page asked the same page share one statement. */
  const perWindow = <V>(make: (window: ListWindow) => DataLoader<string, V>) => {
    const made = new Map<string, DataLoader<string, V>>();
    return ({ size, fromEnd, after, before, counted }: ListWindow) => {
      const key = JSON.stringify([size, fromEnd, after, before, counted]);
      let loader = made.get(key);
      if (!loader) made.set(key, (loader = make({ size, fromEnd, after, before, counted })));
      return loader;
    };
  };
  const { lots, lotRelations } = services;
  return {
    account: one((ids) => services.accounts.shownByIds(ctx, ids), (v) => v.account.id),
    participant: one((ids) => services.participation.byIds(ctx, ids), (p) => p.id),
    callbacks: byLot((ids) => lotRelations.callbacksOf(ctx, ids)),
    bids: byLot((ids) => lotRelations.bidsOf(ctx, ids)),
    bidLogs: batch((ids) => services.bidLog.storedOf(ctx, ids)),
    /** A lot named beside other rows, in its own currency. */
    lot: one((ids) => lots.ownCurrencyViewsOf(ctx, ids), (v) => v.id),
    /** Messages by id, those the caller may read (`node(id:)`). */
    message: one((ids) => services.messages.visibleByIds(ctx, ids), (m) => String(m.id)),
    /** Dialogs by id, those the caller may read (`node(id:)`). */
    dialog: batch((ids) => services.messages.visibleDialogs(ctx, ids)),
    /** Second-chance offers by id, those the caller may see (`node(id:)`). */
    secondChanceOffer: one((ids) => services.secondChance.visibleByIds(ctx, ids), (o) => String(o.id)),
    /** Callback requests by id, those the lot shows the caller (`node(id:)`). */
    callback: one((ids) => lotRelations.visibleCallbacks(ctx, ids), (c) => String(c.id)),
    /** Outbox messages by id, those kept for the caller's platforms (`node(id:)`). */
    outboxMessage: one((ids) => services.outbox.visibleByIds(ctx, ids), (m) => String(m.id)),
    /** Ledger accounts by id (`node(id:)`): public. */
    ledgerAccount: one((ids) => services.ledger.accounts(ctx, ids), (a) => a.id),
    /** The caller's unread messages on each lot. */
    unreadMessages: batch(async (lotIds) => {
      const counts = await services.messages.unreadOnLots(ctx, lotIds);
      return lotIds.map((id) => counts?.get(id) ?? 0);
    }),
    /** The caller's own participation in each lot, with whether it leads. */
    viewerStanding: one((ids) => services.participation.callerStandingsOn(ctx, ids), (s) => s.lotId),
    /** The newest `last` bids of each account that the caller may see as its bids. */
    accountBids: perBound((last) => batch(async (ids) => groupBy(await services.bids.ofAccounts(ctx, ids, last), (b) => b.accountId, ids))),
    /** The newest `last` lots each account organized, in their own currencies. */
    accountLots: perBound((last) => batch(async (ids) => groupBy(await lots.organizedBy(ctx, ids, last), (l) => l.organizerId, ids))),
    /** A window of each account's bids that the caller may see as its bids, newest first. */
    accountBidsWindow: perWindow((window) => batch((ids) => services.bids.windowsOfAccounts(ctx, ids, window))),
    /** A window of the lots each account organized, newest first, in their own currencies. */
    accountLotsWindow: perWindow((window) => batch((ids) => lots.organizedWindows(ctx, ids, window))),
    /** A window of each lot's bids, newest first, each bidder still to be shown as the caller may see it. */
    lotBidsWindow: perWindow((window) => batch((ids) => lotRelations.bidWindowsOf(ctx, ids, window))),
    /** Windows of each lot's participants, deposits, callbacks and stars that the caller may see, newest first (also the deprecated lists' newest rows). */
    lotParticipantsWindow: perWindow((window) => batch((ids) => lotRelations.participantWindowsOf(ctx, ids, window))),
    lotDepositsWindow: perWindow((window) => batch((ids) => lotRelations.depositWindowsOf(ctx, ids, window))),
    lotCallbacksWindow: perWindow((window) => batch((ids) => lotRelations.callbackWindowsOf(ctx, ids, window))),
    lotStarsWindow: perWindow((window) => batch((ids) => lotRelations.starWindowsOf(ctx, ids, window))),
    /** The operator's rates as one converter for the whole request (any key: there is one). */
    converter: batch(async (keys) => {
      const convert = await services.currency.converter(ctx.em);
      return keys.map(() => convert);
    }),
    winnerDetails: one((ids) => lotRelations.winnerDetailsOf(ctx, ids), (w) => w.lotId),
    /** Bids as a replay of `bidPlaced` shows them to the caller, null for no bid. */
    bidEvent: batch((ids) => services.feeds.bidsById(ctx, ids)),
  };
}
export type Loaders = ReturnType<typeof createLoaders>;
