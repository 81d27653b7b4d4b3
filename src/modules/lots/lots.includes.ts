import type { RequestContext } from '../../core/context';
import { isStaffOf, seesLotRow, seesWinnerDetails } from '../../core/policies';
import { rfc3339 } from '../../core/time';
import type { Resource, ResourceIdentifier } from '../../rest/document';
import { Account } from '../accounts/accounts.entity';
import { Bid } from '../bids/bids.entity';
import { presentBid } from '../bids/bids.presenter';
import { fullAccountAttributes, publicAccountAttributes } from '../accounts/accounts.presenter';
import { Deposit, Participant, WinnerDetails } from '../trading/trading.entity';
import { presentDeposit, presentParticipant, presentWinnerDetails } from '../trading/trading.presenter';
import { Callback, Star } from '../watchlist/watchlist.entity';
import type { Lot } from './lots.entity';
import { unreadPerLot } from '../messages/messages.listing';
import { presentUnread } from '../messages/messages.presenter';

export const LOT_INCLUDES = ['participants', 'callbacks', 'platform', 'deposits', 'winner_details', 'organizer', 'stars', 'bids', 'messages'] as const;

export interface LoadedIncludes {
  included: Resource[];
  /** Relationships of each lot, by lot id; `callbacks` is always there. */
  relationships: Map<string, Record<string, { data: ResourceIdentifier | ResourceIdentifier[] | null }>>;
}

/**
 * Loads what a page of lots shows beside the lots: one query per relation whatever the page
 * size. Private rows (participants, deposits, callbacks, stars, winner details) are shown whole
 * to the lot's managers and, to anyone else, only where they are the caller's own.
 */
export async function loadIncludes(ctx: RequestContext, lots: Lot[], include: ReadonlySet<string>): Promise<LoadedIncludes> {
  const ids = lots.map((l) => l.id);
  const byId = new Map(lots.map((l) => [l.id, l]));
  const visible = (lotId: string, accountId: string) => seesLotRow(ctx.caller, byId.get(lotId) as Lot, accountId);
  const relationships: LoadedIncludes['relationships'] = new Map(lots.map((l) => [l.id, {}]));
  const relate = (lotId: string, name: string, data: ResourceIdentifier | ResourceIdentifier[] | null) => {
    (relationships.get(lotId) as Record<string, unknown>)[name] = { data };
  };
  const included: Resource[] = [];
  const seen = new Set<string>();
  const push = (r: Resource) => {
    const key = `${r.type}:${r.id}`;
    if (!seen.has(key)) {
      seen.add(key);
      included.push(r);
    }
  };
  if (!lots.length) return { included, relationships };

  const callbacks = await ctx.em.find(Callback, { lotId: { $in: ids } }, { orderBy: { id: 'asc' } });
  for (const lot of lots) relate(lot.id, 'callbacks', callbacks.filter((c) => c.lotId === lot.id).map((c) => ({ type: 'callbacks', id: c.id })));

  const accountIds = new Set<string>();
  if (include.has('organizer')) lots.forEach((l) => accountIds.add(l.organizerId));
  if (include.has('platform')) lots.forEach((l) => accountIds.add(l.publisherId));
  const shownCallbacks = include.has('callbacks') ? callbacks.filter((c) => visible(c.lotId, c.accountId)) : [];
  shownCallbacks.forEach((c) => accountIds.add(c.accountId));
  const accounts = accountIds.size ? new Map((await ctx.em.find(Account, { id: { $in: [...accountIds] } })).map((a) => [a.id, a])) : new Map<string, Account>();
  const accountResource = (a: Account): Resource => ({
    type: 'accounts',
    id: a.id,
    attributes: ctx.caller?.accountId === a.id || isStaffOf(ctx.caller, a.platformId) ? fullAccountAttributes(a) : publicAccountAttributes(a),
  });

  for (const lot of lots) {
    const organizer = accounts.get(lot.organizerId);
    if (include.has('organizer') && organizer) {
      relate(lot.id, 'organizer', { type: 'accounts', id: organizer.id });
      push(accountResource(organizer));
    }
    const platform = accounts.get(lot.publisherId);
    if (include.has('platform') && platform) {
      relate(lot.id, 'platform', { type: 'accounts', id: platform.id });
      push(accountResource(platform));
    }
  }
  for (const c of shownCallbacks) {
    const a = accounts.get(c.accountId);
    push({
      type: 'callbacks',
      id: c.id,
      attributes: { account_id: c.accountId, lot_id: Number(c.lotId), email: a?.email ?? null, first_name: a?.firstName ?? null, last_name: a?.lastName ?? null, phone_number: a?.phoneNumber ?? null },
    });
  }

  if (include.has('participants')) {
    const rows = (await ctx.em.find(Participant, { lotId: { $in: ids } }, { orderBy: { id: 'asc' } })).filter((p) => visible(p.lotId, p.accountId));
    for (const lot of lots) relate(lot.id, 'participants', rows.filter((p) => p.lotId === lot.id).map((p) => ({ type: 'participants', id: p.id })));
    rows.forEach((p) => push(presentParticipant(p)));
  }
  if (include.has('deposits')) {
    const rows = (await ctx.em.find(Deposit, { lotId: { $in: ids } }, { orderBy: { id: 'asc' } })).filter((d) => visible(d.lotId, d.accountId));
    for (const lot of lots) relate(lot.id, 'deposits', rows.filter((d) => d.lotId === lot.id).map((d) => ({ type: 'deposits', id: d.id })));
    rows.forEach((d) => push(presentDeposit(d)));
  }
  if (include.has('stars')) {
    const rows = (await ctx.em.find(Star, { lotId: { $in: ids } }, { orderBy: { createdAt: 'asc' } })).filter((s) => visible(s.lotId, s.accountId));
    const starId = (s: Star) => `${s.lotId}-${s.accountId}`;
    for (const lot of lots) relate(lot.id, 'stars', rows.filter((s) => s.lotId === lot.id).map((s) => ({ type: 'stars', id: starId(s) })));
    rows.forEach((s) => push({ type: 'stars', id: starId(s), attributes: { account_id: s.accountId, lot_id: Number(s.lotId), created_at: rfc3339(s.createdAt) } }));
  }
  if (include.has('winner_details')) {
    const rows = await ctx.em.find(WinnerDetails, { lotId: { $in: ids } });
    for (const lot of lots) {
      const row = rows.find((w) => w.lotId === lot.id);
      const shown = row && seesWinnerDetails(ctx.caller, lot);
      relate(lot.id, 'winner_details', shown ? { type: 'winner_details', id: lot.id } : null);
      if (shown) push(presentWinnerDetails(row));
    }
  }
  if (include.has('bids')) {
    const rows = await ctx.em.find(Bid, { lotId: { $in: ids } }, { orderBy: { id: 'asc' } });
    for (const lot of lots) relate(lot.id, 'bids', rows.filter((b) => b.lotId === lot.id).map((b) => ({ type: 'bids', id: b.id })));
    rows.forEach((b) => push(presentBid(b, visible(b.lotId, b.accountId))));
  }
  if (include.has('messages')) {
    // The caller's own unread messages about each lot, as an unread counter; anonymous callers have none.
    const caller = ctx.caller;
    const unread = caller ? await unreadPerLot(ctx.em, caller.accountId, ids) : new Map<string, number>();
    for (const lot of lots) {
      const id = caller ? `${lot.id}-${caller.accountId}` : null;
      relate(lot.id, 'messages', id ? { type: 'unread_messages', id } : null);
      if (id) push(presentUnread(id, unread.get(lot.id) ?? 0, { lot_id: Number(lot.id) }));
    }
  }
  return { included, relationships };
}
