import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import type Decimal from 'decimal.js';
import type { RequestContext } from '../../core/context';
import { forbidden, invalid, notFound, type DomainError } from '../../core/errors';
import { integerId } from '../../core/ids';
import { listBound, type KeysetPage } from '../../core/page';
import type { LivePublisher } from '../../live/live.port';
import { managesLot, requireActive, requireCaller, seesLotRow, seesWinnerDetails, staffPlatforms } from '../../core/policies';
import { inTransaction, type TransactionScope } from '../../core/transaction';
import { validateInput, type Untrusted } from '../../core/validate';
import { Bid, type BidRow, seenBids, type SeenBid } from '../bids';
import { converterOf, type Converter, type CurrencyService } from '../currency';
import type { ReferenceService } from '../reference';
import { type IncrementBand, requireReserveChangeable, type RulesService } from '../rules';
import { Deposit, Participant, WinnerDetails } from '../trading';
import { Callback, Star } from '../watchlist';
import { draftOf, START_TIME_TOLERANCE_S, type LotDraft } from './lots.draft';
import { Lot, type ListedLot } from './lots.entity';
import { findLot } from './lots.find';
import type { LotMaker } from './lots.maker';
import { createLotInput, getLotInput, lotAggregateInput, lotCountInput, lotPageInput, updateLotInput, type NewLotInput, type GetLotInput, type LotAggregateInput, type LotCountInput, type LotPageInput, type UpdateLotInput } from './lots.input';
import type { LotsAggregate } from './lots.aggregate';
import { DEFAULT_PRICE_CURRENCY, LotListing } from './lots.listing';
import type { Embeddable, Embedded } from './lots.embedded';
import { loadRelated, type LotsRelated } from './lots.related';
import { bidsOfLots, lotsOfOrganizers, participantsOfLots } from './lots.related.sql';
import { lotView, OWN_CURRENCY, type LotView } from './lots.view';
import type { LotRelation } from './lots.relations';

const NOTHING: ReadonlySet<Embeddable> = new Set();

export interface LotsView {
  lots: ListedLot[];
  convert: Converter;
  /** The currency the prices are to be shown in; each lot's own when absent. */
  currency?: string;
  /** The increment table of each lot created under one, by lot id: the steps it shows follow its band. */
  increments?: ReadonlyMap<string, readonly IncrementBand[]>;
  /** The relations the page's statement read beside its lots, when it was asked to (`index`). */
  embedded?: Embedded;
}

/** Where a lot proposed by someone who may not publish it goes for review (the create-lot requests), inside the caller's transaction. */
export interface LotReview {
  submit(em: EntityManager, scope: TransactionScope, requestor: string, platformId: string, draft: LotDraft): Promise<{ id: string }>;
}

export type CreatedLot = { lot: Lot; request?: undefined } | { request: { id: string }; lot?: undefined };

/** The owners of a lot's private rows: enough of a lot to decide who sees them. */
type LotOwners = Pick<Lot, 'organizerId' | 'publisherId' | 'winnerId'>;

export class LotsService {
  private readonly createSchema;

  constructor(
    reference: ReferenceService,
    private readonly requests: LotReview,
    private readonly currency: CurrencyService,
    private readonly maker: LotMaker,
    private readonly rules: Pick<RulesService, 'ofLot'>,
    private readonly live: LivePublisher,
    private readonly listing = new LotListing(),
  ) {
    this.createSchema = createLotInput(reference);
  }

  /**
   * POST /lots: platform staff create the lot on their platform; anyone else files a create_lot
   * request for review by their platform.
   */
  async create(ctx: RequestContext, input: Untrusted<NewLotInput>): Promise<CreatedLot> {
    const caller = requireCaller(ctx);
    requireActive(caller);
    const lot = validateInput(this.createSchema, input);
    if (lot.startTime !== undefined && lot.startTime < Date.now() / 1000 - START_TIME_TOLERANCE_S) {
      throw invalid('start_time_past', `start_time is more than ${START_TIME_TOLERANCE_S} seconds in the past`, { field: 'startTime' });
    }
    const draft = draftOf(lot);
    const [publisher] = staffPlatforms(caller).filter((p) => p === caller.accountId || p === caller.platformId);
    return inTransaction(ctx, async (em, scope) => {
      if (publisher) return { lot: await this.maker.make(em, scope, draft, caller.accountId, publisher, 'keep') };
      if (!caller.platformId) throw invalid('no_platform', 'the caller belongs to no platform');
      return { request: await this.requests.submit(em, scope, caller.accountId, caller.platformId, draft) };
    });
  }

  /**
   * PATCH /lots/{id}: the lot's organizer or staff of its publisher change its reserve price
   * (docs/auction-rules.md), under the lock of its row, which the bid round takes too, so that
   * "no bid yet" holds until the change commits.
   */
  async update(ctx: RequestContext, input: Untrusted<UpdateLotInput>): Promise<LotsView> {
    requireCaller(ctx);
    const id = await inTransaction(ctx, async (em, scope) => {
      const lot = await findLot(em, input.id, LockMode.PESSIMISTIC_WRITE);
      if (!managesLot(ctx.caller, lot)) throw forbidden('not_allowed', "only the lot's organizer or staff of its publisher may change it");
      const { reservePrice } = validateInput(updateLotInput, input);
      if (reservePrice !== undefined) {
        requireReserveChangeable(lot, reservePrice);
        lot.reservePrice = reservePrice;
      }
      await em.flush();
      scope.afterCommit(() => this.live.publishLotChanged(lot.id));
      return lot.id;
    });
    return this.get(ctx, { id });
  }

  /** GET /lots/{id}; `currency` shows the prices in another supported currency. */
  async get(ctx: RequestContext, input: Untrusted<GetLotInput>): Promise<LotsView> {
    const { id, currency } = validateInput(getLotInput, input, 'parameter');
    const lot = await findLot(ctx.em, id);
    // As a page's (LotListing.read): prices in the lot's own currency need no rate.
    const rates = currency === undefined ? new Map<string, Decimal>() : await this.currency.rates(ctx.em);
    return { lots: [lot], convert: converterOf(rates), currency, increments: await this.incrementsOf(ctx, [lot]) };
  }

  /** GET /lots: one page of lots; `embed` names the relations to read beside them in the page's own statement. */
  async index(ctx: RequestContext, input: Untrusted<LotPageInput>, embed: ReadonlySet<Embeddable> = NOTHING): Promise<LotsView & Omit<KeysetPage<unknown>, 'items'>> {
    const req = validateInput(lotPageInput, input, 'parameter');
    const page = await this.listing.page(ctx, req, embed);
    const { items: lots, next, prev, positions, embedded } = page;
    return { lots, next, prev, positions, embedded, convert: converterOf(page.rates), currency: req.filter.currency, increments: await this.incrementsOf(ctx, lots) };
  }

  async count(ctx: RequestContext, input: Untrusted<LotCountInput>): Promise<number> {
    const { filter } = validateInput(lotCountInput, input, 'parameter');
    return this.listing.count(ctx, filter);
  }

  /**
   * The count and price sums of the lots `index` lists under the filter, for the same caller,
   * grouped when asked: one statement, beside the rates.
   */
  async aggregate(ctx: RequestContext, input: Untrusted<LotAggregateInput>): Promise<LotsAggregate> {
    const { filter, currency, groupBy } = validateInput(lotAggregateInput, input, 'parameter');
    return this.listing.aggregate(ctx, filter, currency ?? filter.currency ?? DEFAULT_PRICE_CURRENCY, groupBy);
  }

  /** What the lots show beside them (REST includes), as the caller may see it: one query per relation the page did not embed. */
  related(ctx: RequestContext, lots: ListedLot[], relations: ReadonlySet<LotRelation>, embedded?: Embedded): Promise<LotsRelated> {
    return loadRelated(ctx, lots, relations, embedded);
  }

  /**
   * A lot's private rows (participants, deposits, callbacks, stars) that the caller may see: all
   * of them for its managers, else the caller's own.
   */
  visibleRows<T extends { accountId: string }>(ctx: RequestContext, lot: LotOwners, rows: readonly T[]): T[] {
    return rows.filter((r) => seesLotRow(ctx.caller, lot, r.accountId));
  }

  /**
   * The newest `last` of the private rows the caller may see, oldest first as `rows` are: a lot
   * starred or joined by thousands would otherwise answer every row.
   */
  recentVisibleRows<T extends { accountId: string }>(ctx: RequestContext, lot: LotOwners, rows: readonly T[], last: number): T[] {
    const bound = listBound(last, 'last');
    return this.visibleRows(ctx, lot, rows).slice(-bound);
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

  /**
   * The lots of a view as the caller may see them, in the view's currency and with their increment
   * tables: everyone sees `reserveMet`, the lot's managers alone the reserve amount. Made per
   * caller from a view that callers may share (a live change is loaded once for its subscribers).
   */
  views(ctx: RequestContext, view: LotsView): LotView[] {
    return view.lots.map((lot) => lotView(ctx.caller, lot, { convert: view.convert, currency: view.currency, increments: view.increments?.get(lot.id) }));
  }

  /** A lot named beside other rows (a message), in its own currency, as the caller may see it. */
  ownCurrencyView(ctx: RequestContext, lot: ListedLot): LotView {
    return lotView(ctx.caller, lot, OWN_CURRENCY);
  }

  /** A participant by id as `Lot.participants` shows it to the caller: one it would hide is answered as none. */
  visibleParticipant(ctx: RequestContext, id: string): Promise<Participant> {
    return this.visibleRowById(ctx, Participant, id, () => notFound('participant_not_found', 'no such participant'));
  }

  /** A deposit by id as `Lot.deposits` shows it to the caller: one it would hide is answered as none. */
  visibleDeposit(ctx: RequestContext, id: string): Promise<Deposit> {
    return this.visibleRowById(ctx, Deposit, id, () => notFound('deposit_not_found', 'no such deposit'));
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

  /** A lot's winner details, for its managers and its winner only. */
  shownWinnerDetails<W>(ctx: RequestContext, lot: LotOwners, details: W | null): W | null {
    return details && seesWinnerDetails(ctx.caller, lot) ? details : null;
  }

  // A GraphQL request's batches, by lot id: rows in id order (stars: of their creation), which the
  // resolvers show through `recentVisibleRows`, `recentBids` and `shownWinnerDetails`.
  participantsOf(ctx: RequestContext, lotIds: readonly string[]): Promise<Participant[]> {
    return participantsOfLots(ctx.em, lotIds);
  }

  bidsOf(ctx: RequestContext, lotIds: readonly string[]): Promise<Bid[]> {
    return bidsOfLots(ctx.em, lotIds);
  }

  depositsOf(ctx: RequestContext, lotIds: readonly string[]): Promise<Deposit[]> {
    return ctx.em.find(Deposit, { lotId: { $in: [...lotIds] } }, { orderBy: { id: 'asc' } });
  }

  callbacksOf(ctx: RequestContext, lotIds: readonly string[]): Promise<Callback[]> {
    return ctx.em.find(Callback, { lotId: { $in: [...lotIds] } }, { orderBy: { id: 'asc' } });
  }

  starsOf(ctx: RequestContext, lotIds: readonly string[]): Promise<Star[]> {
    return ctx.em.find(Star, { lotId: { $in: [...lotIds] } }, { orderBy: { createdAt: 'asc' } });
  }

  winnerDetailsOf(ctx: RequestContext, lotIds: readonly string[]): Promise<WinnerDetails[]> {
    return ctx.em.find(WinnerDetails, { lotId: { $in: [...lotIds] } });
  }

  /** Lots by id named beside other rows (messages), in their own currencies, as the caller may see them; absent ids are left out. */
  async ownCurrencyViewsOf(ctx: RequestContext, ids: readonly string[]): Promise<LotView[]> {
    return (await ctx.em.find(Lot, { id: { $in: [...ids] } })).map((lot) => this.ownCurrencyView(ctx, lot));
  }

  /** The newest `last` lots (by default and at most 100) each account organized, in their own currencies, as the caller may see them; newest first. */
  async organizedBy(ctx: RequestContext, accountIds: readonly string[], last?: number): Promise<LotView[]> {
    const bound = listBound(last, 'last');
    return (await lotsOfOrganizers(ctx.em, accountIds, bound)).map((lot) => this.ownCurrencyView(ctx, lot));
  }

  /** The increment tables of the lots created under one (versions are cached, so a page costs a lookup per version at most once per process). */
  private async incrementsOf(ctx: RequestContext, lots: readonly ListedLot[]): Promise<Map<string, readonly IncrementBand[]>> {
    const tables = new Map<string, readonly IncrementBand[]>();
    for (const lot of lots) {
      const increments = lot.rulesVersion === null ? null : (await this.rules.ofLot(ctx.em, lot))?.increments;
      if (increments) tables.set(lot.id, increments);
    }
    return tables;
  }
}
