import { rfc3339 } from '../../core/time';
import type { Resource, ResourceIdentifier } from '../../rest/document';
import { fullAccountAttributes, publicAccountAttributes } from '../accounts';
import { presentBid } from '../bids';
import { presentUnread } from '../messages';
import { presentDeposit, presentParticipant, presentWinnerDetails } from '../trading';
import type { Star } from '../watchlist';
import type { ListedLot, LotIncluder, LotIncludes, LotRelation } from '../lots';
import type { LotsRelated, ShownAccount } from './lot-relations.load';
import type { LotRelationsService } from './lot-relations.service';

const accountResource = ({ account, full }: ShownAccount): Resource => ({
  type: 'accounts',
  id: account.id,
  attributes: full ? fullAccountAttributes(account) : publicAccountAttributes(account),
});

const starId = (s: Star) => `${s.lotId}-${s.accountId}`;

/** What a page of lots shows beside the lots, as JSON:API relationships and included resources (each resource once). */
export function lotIncludes(lots: ListedLot[], related: LotsRelated, relations: ReadonlySet<LotRelation>): LotIncludes {
  const relationships: LotIncludes['relationships'] = new Map(lots.map((l) => [l.id, {}]));
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
  const ofLot = <T extends { lotId: string }>(rows: T[], lot: ListedLot) => rows.filter((r) => r.lotId === lot.id);

  for (const lot of lots) relate(lot.id, 'callbacks', ofLot(related.callbacks, lot).map((c) => ({ type: 'callbacks', id: c.id })));
  for (const lot of lots) {
    for (const [name, id] of [['organizer', lot.organizerId], ['platform', lot.publisherId]] as const) {
      const shown = related.accounts.get(id);
      if (!shown || !relations.has(name)) continue;
      relate(lot.id, name, { type: 'accounts', id });
      push(accountResource(shown));
    }
  }
  for (const c of related.shownCallbacks ?? []) {
    const a = related.accounts.get(c.accountId)?.account;
    push({
      type: 'callbacks',
      id: c.id,
      attributes: { account_id: c.accountId, lot_id: Number(c.lotId), email: a?.email ?? null, first_name: a?.firstName ?? null, last_name: a?.lastName ?? null, phone_number: a?.phoneNumber ?? null },
    });
  }
  if (related.participants) {
    const rows = related.participants;
    for (const lot of lots) relate(lot.id, 'participants', ofLot(rows, lot).map((p) => ({ type: 'participants', id: p.id })));
    rows.forEach((p) => push(presentParticipant(p)));
  }
  if (related.deposits) {
    const rows = related.deposits;
    for (const lot of lots) relate(lot.id, 'deposits', ofLot(rows, lot).map((d) => ({ type: 'deposits', id: d.id })));
    rows.forEach((d) => push(presentDeposit(d)));
  }
  if (related.stars) {
    const rows = related.stars;
    for (const lot of lots) relate(lot.id, 'stars', ofLot(rows, lot).map((s) => ({ type: 'stars', id: starId(s) })));
    rows.forEach((s) => push({ type: 'stars', id: starId(s), attributes: { account_id: s.accountId, lot_id: Number(s.lotId), created_at: rfc3339(s.createdAt) } }));
  }
  if (related.winnerDetails) {
    for (const lot of lots) {
      const row = related.winnerDetails.find((w) => w.lotId === lot.id);
      relate(lot.id, 'winner_details', row ? { type: 'winner_details', id: lot.id } : null);
      if (row) push(presentWinnerDetails(row));
    }
  }
  if (related.bids) {
    const rows = related.bids;
    for (const lot of lots) relate(lot.id, 'bids', rows.filter((s) => s.bid.lotId === lot.id).map((s) => ({ type: 'bids', id: s.bid.id })));
    rows.forEach((s) => push(presentBid(s.bid, s.bidderShown)));
  }
  if (related.unread !== undefined) {
    const unread = related.unread;
    for (const lot of lots) {
      const id = unread ? `${lot.id}-${unread.accountId}` : null;
      relate(lot.id, 'messages', id ? { type: 'unread_messages', id } : null);
      if (unread && id) push(presentUnread(id, unread.counts.get(lot.id) ?? 0, { lot_id: Number(lot.id) }));
    }
  }
  return { included, relationships };
}

/** Lots' `LotIncluder`: the rows beside a page of lots, read and shown as JSON:API. */
export const lotIncluder = (relations: LotRelationsService): LotIncluder => ({
  include: async (ctx, lots, asked, embedded) => lotIncludes(lots, await relations.related(ctx, lots, asked, embedded), asked),
});
