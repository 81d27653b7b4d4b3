import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import type Decimal from 'decimal.js';
import type { RequestContext } from '../../core/context';
import { forbidden, invalid } from '../../core/errors';
import { listBound, type KeysetPage } from '../../core/page';
import type { LivePublisher } from '../../live/live.port';
import { managesLot, requireActive, requireCaller, seesLotRow, seesWinnerDetails, staffPlatforms } from '../../core/policies';
import { inTransaction, type TransactionScope } from '../../core/transaction';
import { validateInput, type Untrusted } from '../../core/validate';
import { converterOf, type Converter, type CurrencyService } from '../currency';
import type { ReferenceService } from '../reference';
import { requireReserveChangeable } from './lots.reserve';
import type { LotTerms, ShownSteps } from './lots.terms';
import { draftOf, START_TIME_TOLERANCE_S, type LotDraft } from './lots.draft';
import { Lot, type ListedLot } from './lots.entity';
import { findLot } from './lots.find';
import type { LotMaker } from './lots.maker';
import { createLotInput, getLotInput, lotAggregateInput, lotCountInput, lotPageInput, updateLotInput, type NewLotInput, type GetLotInput, type LotAggregateInput, type LotCountInput, type LotPageInput, type UpdateLotInput } from './lots.input';
import type { LotsAggregate } from './lots.aggregate';
import { DEFAULT_PRICE_CURRENCY, LotListing } from './lots.listing';
import type { Embeddable, Embedded } from './lots.embedded';
import { lotsOfOrganizers, lotWindowsOfOrganizers } from './lots.organizers.sql';
import type { ListWindow, WindowPage } from '../../core/list-window';
import { lotView, OWN_CURRENCY, type LotView } from './lots.view';

const NOTHING: ReadonlySet<Embeddable> = new Set();

export interface LotsView {
  lots: ListedLot[];
  convert: Converter;
  /** The currency the prices are to be shown in; each lot's own when absent. */
  currency?: string;
  /** The steps each lot created under an increment table shows, by lot id: its band's. */
  steps?: ReadonlyMap<string, ShownSteps>;
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
    private readonly rules: Pick<LotTerms, 'shownStepsOf'>,
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
    return { lots: [lot], convert: converterOf(rates), currency, steps: await this.stepsOf(ctx, [lot]) };
  }

  /** GET /lots: one page of lots; `embed` names the relations to read beside them in the page's own statement. */
  async index(ctx: RequestContext, input: Untrusted<LotPageInput>, embed: ReadonlySet<Embeddable> = NOTHING): Promise<LotsView & Omit<KeysetPage<unknown>, 'items'>> {
    const req = validateInput(lotPageInput, input, 'parameter');
    const page = await this.listing.page(ctx, req, embed);
    const { items: lots, next, prev, positions, embedded } = page;
    return { lots, next, prev, positions, embedded, convert: converterOf(page.rates), currency: req.filter.currency, steps: await this.stepsOf(ctx, lots) };
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
    return this.recentRows(this.visibleRows(ctx, lot, rows), last);
  }

  /** The newest `last` of rows read already as the caller may see them, oldest first as `rows` are. */
  recentRows<T>(rows: readonly T[], last: number): T[] {
    return rows.slice(-listBound(last, 'last'));
  }

  /**
   * The lots of a view as the caller may see them, in the view's currency and with their increment
   * tables: everyone sees `reserveMet`, the lot's managers alone the reserve amount. Made per
   * caller from a view that callers may share (a live change is loaded once for its subscribers).
   */
  views(ctx: RequestContext, view: LotsView): LotView[] {
    return view.lots.map((lot) => lotView(ctx.caller, lot, { convert: view.convert, currency: view.currency, steps: view.steps?.get(lot.id) }));
  }

  /** A lot named beside other rows (a message), in its own currency, as the caller may see it. */
  ownCurrencyView(ctx: RequestContext, lot: ListedLot): LotView {
    return lotView(ctx.caller, lot, OWN_CURRENCY);
  }

  /** A lot's winner details, for its managers and its winner only. */
  shownWinnerDetails<W>(ctx: RequestContext, lot: LotOwners, details: W | null): W | null {
    return details && seesWinnerDetails(ctx.caller, lot) ? details : null;
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

  /** The same window of the lots each account organized, newest first, in their own currencies, as the caller may see them (as `organizedBy` shows them). */
  async organizedWindows(ctx: RequestContext, accountIds: readonly string[], window: ListWindow): Promise<WindowPage<LotView>[]> {
    const pages = await lotWindowsOfOrganizers(ctx.em, accountIds, window);
    return pages.map((page) => ({ ...page, items: page.items.map((lot) => this.ownCurrencyView(ctx, lot)) }));
  }

  /** The steps of the lots created under an increment table (rule versions are cached, so a page costs a lookup per version at most once per process). */
  private async stepsOf(ctx: RequestContext, lots: readonly ListedLot[]): Promise<Map<string, ShownSteps>> {
    const steps = new Map<string, ShownSteps>();
    for (const lot of lots) {
      const shown = lot.rulesVersion === null ? null : await this.rules.shownStepsOf(ctx.em, lot);
      if (shown) steps.set(lot.id, shown);
    }
    return steps;
  }
}
