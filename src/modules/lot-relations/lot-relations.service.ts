import type { RequestContext } from '../../core/context';
import { notFound, type DomainError } from '../../core/errors';
import { integerId } from '../../core/ids';
import { seesLotRow } from '../../core/policies';
import type { ListWindow, WindowPage } from '../../core/list-window';
import { listBound } from '../../core/page';
import { sql } from '../../db/sql';
import { Bid, type BidRow, seenBids, type SeenBid } from '../bids';
import { type Embedded, findLot, type ListedLot, Lot, type LotRelation } from '../lots';
import { Deposit, Participant, WinnerDetails } from '../trading';
import { Callback, Star } from '../watchlist';
import { loadRelated, type LotsRelated } from './lot-relations.load';
import { bidsOfLots } from './lot-relations.sql';
import { bidWindowsOfLots, participantWindowsOfLots, type PrivateRows, privateWindowsOfLots } from './lot-relations.windows.sql';

/** The owners of a lot's bids: enough of a lot to decide who sees its bidders. */
type LotOwners = Pick<ListedLot, 'organizerId' | 'publisherId' | 'winnerId'>;

/**
 * What a lot shows beside it from the areas that stand above lots (trading, bids, watchlist,
 * messages): REST's include and the fields of GraphQL's Lot read their rows here, as the caller may see them.
 */
export class LotRelationsService {
  /** What the lots show beside them (REST includes), as the caller may see it: one query per relation the page did not embed. */
  related(ctx: RequestContext, lots: ListedLot[], relations: ReadonlySet<LotRelation>, embedded?: Embedded): Promise<LotsRelated> {
    return loadRelated(ctx, lots, relations, embedded);
  }

  /** A lot's bids, each naming its bidder only to those who may know it. */
  seenBids<B extends BidRow>(ctx: RequestContext, lot: LotOwners, bids: readonly B[]): SeenBid<B>[] {
    return seenBids(ctx.caller, lot, bids);
  }

  /**
   * The newest `last` of a lot's bids, oldest first as `bids` are, seen as `seenBids` shows them.
   * A lot's history has no bound of its own (one had 60 bids); a GraphQL field answers at most a
   * page of it, which is what its cost counts.
   */
  recentBids<B extends BidRow>(ctx: RequestContext, lot: LotOwners, bids: readonly B[], last: number): SeenBid<B>[] {
    return seenBids(ctx.caller, lot, bids.slice(-listBound(last, 'last')));
  }

  // A GraphQL request's batches, by lot id: rows in id order, which the resolvers show through
  // lots' `recentVisibleRows` and `shownWinnerDetails`, and `recentBids`.
  bidsOf(ctx: RequestContext, lotIds: readonly string[]): Promise<Bid[]> {
    return bidsOfLots(ctx.em, lotIds);
  }

  callbacksOf(ctx: RequestContext, lotIds: readonly string[]): Promise<Callback[]> {
    return ctx.em.find(Callback, { lotId: { $in: [...lotIds] } }, { orderBy: { id: 'asc' } });
  }

  winnerDetailsOf(ctx: RequestContext, lotIds: readonly string[]): Promise<WinnerDetails[]> {
    return ctx.em.find(WinnerDetails, { lotId: { $in: [...lotIds] } });
  }

  // A GraphQL request's windows of its lots' row connections, the same window of every lot in one
  // statement, newest first: each page and count holds only what the caller may see.
  /** Every bid of the lots: the resolver names each bidder as `seenBids` shows it. */
  bidWindowsOf(ctx: RequestContext, lotIds: readonly string[], window: ListWindow): Promise<WindowPage<BidRow>[]> {
    return bidWindowsOfLots(ctx.em, lotIds, window);
  }

  /** The participants the caller may see (`seesParticipantSql`, as REST's include reads them). */
  participantWindowsOf(ctx: RequestContext, lotIds: readonly string[], window: ListWindow): Promise<WindowPage<Participant>[]> {
    return participantWindowsOfLots(ctx.em, ctx.caller, lotIds, window);
  }

  /** The deposits the caller may see: all to the lot's managers, else its own. */
  depositWindowsOf(ctx: RequestContext, lotIds: readonly string[], window: ListWindow): Promise<WindowPage<Deposit>[]> {
    return this.privateWindowsOf(ctx, lotIds, window, Deposit, { table: sql`deposits`, byCreation: false });
  }

  /** The callback requests the caller may see: all to the lot's managers, else its own. */
  callbackWindowsOf(ctx: RequestContext, lotIds: readonly string[], window: ListWindow): Promise<WindowPage<Callback>[]> {
    return this.privateWindowsOf(ctx, lotIds, window, Callback, { table: sql`callbacks`, byCreation: false });
  }

  /** The stars the caller may see, by their creation: all to the lot's managers, else its own. */
  starWindowsOf(ctx: RequestContext, lotIds: readonly string[], window: ListWindow): Promise<WindowPage<Star>[]> {
    return this.privateWindowsOf(ctx, lotIds, window, Star, { table: sql`stars`, byCreation: true });
  }

  private async privateWindowsOf<T extends object>(ctx: RequestContext, lotIds: readonly string[], window: ListWindow, entity: new () => T, rows: PrivateRows): Promise<WindowPage<T>[]> {
    const pages = await privateWindowsOfLots(ctx.em, ctx.caller, lotIds, window, rows);
    return pages.map((page) => ({ ...page, items: page.items.map((row) => ctx.em.map(entity, row)) }));
  }

  /** A participant by id as `Lot.participants` shows it to the caller: one it would hide is answered as none. */
  visibleParticipant(ctx: RequestContext, id: string): Promise<Participant> {
    return this.visibleRowById(ctx, Participant, id, () => notFound('participant_not_found', 'no such participant'));
  }

  /** A deposit by id as `Lot.deposits` shows it to the caller: one it would hide is answered as none. */
  visibleDeposit(ctx: RequestContext, id: string): Promise<Deposit> {
    return this.visibleRowById(ctx, Deposit, id, () => notFound('deposit_not_found', 'no such deposit'));
  }

  /** Callback requests by id as `Lot.callbacks` shows them to the caller (`node(id:)`): those it would hide are absent, as ids of none. */
  async visibleCallbacks(ctx: RequestContext, ids: readonly string[]): Promise<Callback[]> {
    const keys = ids.map(integerId).filter((key): key is string => key !== null);
    const rows = keys.length ? await ctx.em.find(Callback, { id: { $in: keys } }) : [];
    const lotIds = [...new Set(rows.map((r) => r.lotId))];
    const lots = new Map((lotIds.length ? await ctx.em.find(Lot, { id: { $in: lotIds } }) : []).map((lot) => [String(lot.id), lot]));
    return rows.filter((r) => {
      const lot = lots.get(String(r.lotId));
      return lot !== undefined && seesLotRow(ctx.caller, lot, r.accountId);
    });
  }

  /** A bid by id as its lot's history shows it: to anyone, its bidder named only to those who may know it. */
  async seenBid(ctx: RequestContext, id: string): Promise<SeenBid<Bid>> {
    const bid = await this.rowById(ctx, Bid, id);
    if (!bid) throw notFound('bid_not_found', 'no such bid');
    return this.seenBids(ctx, await findLot(ctx.em, bid.lotId), [bid])[0];
  }

  private async rowById<T extends object>(ctx: RequestContext, entity: new () => T, id: string): Promise<T | null> {
    const key = integerId(id);
    return key === null ? null : ctx.em.findOne(entity, { id: key } as never);
  }

  private async visibleRowById<T extends { lotId: string; accountId: string }>(ctx: RequestContext, entity: new () => T, id: string, missing: () => DomainError): Promise<T> {
    const row = await this.rowById(ctx, entity, id);
    const lot = row && (await ctx.em.findOne(Lot, { id: row.lotId }));
    if (!row || !lot || !seesLotRow(ctx.caller, lot, row.accountId)) throw missing();
    return row;
  }
}
