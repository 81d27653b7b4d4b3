import type { RequestContext } from '../../core/context';
import { seesFullAccount, seesLotRow, seesWinnerDetails } from '../../core/policies';
import { type Account, accountsByIds } from '../accounts';
import { Bid, seenBids, type SeenBid } from '../bids';
import { unreadPerLot } from '../messages';
import { Deposit, Participant, WinnerDetails } from '../trading';
import { Callback, Star } from '../watchlist';
import type { Embedded, ListedLot, LotRelation } from '../lots';
import { bidsOfLots, callbacksOfLots, participantsOfLots } from './lot-relations.sql';

/** Rows by their bigint ids, as `order by id` gives them. */
const inIdOrder = (a: { id: string }, b: { id: string }) => a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** An account beside a lot, and whether the caller sees all of it (itself, or staff of its platform). */
export interface ShownAccount {
  account: Account;
  full: boolean;
}

/**
 * What a page of lots shows beside the lots, as the caller may see it. Relations that were not
 * asked for are null; rows are in the order of their ids (stars: of their creation).
 */
export interface LotsRelated {
  /** Every callback of the lots, the caller's or not (they are always named beside a lot). */
  callbacks: Callback[];
  /** The callbacks the caller may see, when asked for. */
  shownCallbacks: Callback[] | null;
  /** The organizers, platforms and callback requesters asked for, by id. */
  accounts: Map<string, ShownAccount>;
  participants: Participant[] | null;
  deposits: Deposit[] | null;
  stars: Star[] | null;
  /** The winner details the caller may see. */
  winnerDetails: WinnerDetails[] | null;
  bids: SeenBid<Bid>[] | null;
  /** The caller's unread messages per lot id; null for an anonymous caller. */
  unread: { accountId: string; counts: Map<string, number> } | null | undefined;
}

/**
 * Loads the relations of a page of lots: one query per relation whatever the page size. Private
 * rows (deposits, callbacks, stars, winner details) are kept whole for the lot's managers and, for
 * anyone else, only where they are the caller's own; participants as `seesParticipantSql` shows them.
 */
export async function loadRelated(ctx: RequestContext, lots: ListedLot[], relations: ReadonlySet<LotRelation>, embedded?: Embedded): Promise<LotsRelated> {
  const ids = lots.map((l) => l.id);
  const byId = new Map(lots.map((l) => [l.id, l]));
  const visible = <T extends { lotId: string; accountId: string }>(rows: T[]) => rows.filter((r) => seesLotRow(ctx.caller, byId.get(r.lotId) as ListedLot, r.accountId));
  const related: LotsRelated = {
    callbacks: [],
    shownCallbacks: null,
    accounts: new Map(),
    participants: null,
    deposits: null,
    stars: null,
    winnerDetails: null,
    bids: null,
    unread: undefined,
  };
  if (!lots.length) return related;

  // Rows the page's statement read (lots.embedded.ts), else read now; in id order either way.
  const rowsOf = <T extends { id: string }>(read: ReadonlyMap<string, T[]> | null | undefined, load: () => Promise<T[]>): Promise<T[]> =>
    read ? Promise.resolve(ids.flatMap((id) => read.get(id) ?? []).sort(inIdOrder)) : load();
  related.callbacks = await rowsOf(embedded?.callbacks, () => callbacksOfLots(ctx.em, ids));
  const accountIds = new Set<string>();
  if (relations.has('organizer')) lots.forEach((l) => accountIds.add(l.organizerId));
  if (relations.has('platform')) lots.forEach((l) => accountIds.add(l.publisherId));
  if (relations.has('callbacks')) {
    related.shownCallbacks = visible(related.callbacks);
    related.shownCallbacks.forEach((c) => accountIds.add(c.accountId));
  }
  const shown = (account: Account) => related.accounts.set(account.id, { account, full: seesFullAccount(ctx.caller, account) });
  const missing: string[] = [];
  for (const id of accountIds) {
    const account = embedded?.accounts.get(id);
    if (account) shown(account);
    else missing.push(id);
  }
  if (missing.length) (await accountsByIds(ctx.em, missing)).forEach(shown);
  if (relations.has('participants')) related.participants = await participantsOfLots(ctx.em, ctx.caller, ids);
  if (relations.has('deposits')) related.deposits = visible(await ctx.em.find(Deposit, { lotId: { $in: ids } }, { orderBy: { id: 'asc' } }));
  if (relations.has('stars')) related.stars = visible(await ctx.em.find(Star, { lotId: { $in: ids } }, { orderBy: { createdAt: 'asc' } }));
  if (relations.has('winnerDetails')) {
    const rows = await ctx.em.find(WinnerDetails, { lotId: { $in: ids } });
    related.winnerDetails = rows.filter((w) => seesWinnerDetails(ctx.caller, byId.get(w.lotId) as ListedLot));
  }
  if (relations.has('bids')) {
    const rows = await rowsOf(embedded?.bids, () => bidsOfLots(ctx.em, ids));
    related.bids = rows.flatMap((b) => seenBids(ctx.caller, byId.get(b.lotId) as ListedLot, [b]));
  }
  if (relations.has('messages')) {
    const caller = ctx.caller;
    related.unread = caller ? { accountId: caller.accountId, counts: await unreadPerLot(ctx.em, caller.accountId, ids) } : null;
  }
  return related;
}
