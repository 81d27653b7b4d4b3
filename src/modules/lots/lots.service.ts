import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { invalid } from '../../core/errors';
import { requireActive, requireCaller, staffPlatforms } from '../../core/policies';
import { inTransaction, type TransactionScope } from '../../core/transaction';
import type { LotClock } from '../../jobs/lot-clock';
import { validateAttributes, type ResourceInput } from '../../core/validate';
import { CURRENCIES } from '../accounts/accounts.input';
import { isCurrency } from '../currency/currency.input';
import { converterOf, type Converter, type CurrencyService } from '../currency/currency.service';
import type { ReferenceService } from '../reference/reference.service';
import type { CreateLotRequest } from '../requests/requests.entity';
import type { RequestsService } from '../requests/requests.service';
import { draftOf, lotFieldsOf, type LotDraft } from './lots.draft';
import { Lot } from './lots.entity';
import type { LotFilter } from './lots.filter';
import { loadIncludes, type LoadedIncludes } from './lots.includes';
import { findLot } from './lots.find';
import { createLotSchema } from './lots.input';
import { LotListing, type LotPageRequest } from './lots.listing';

const START_TIME_TOLERANCE_S = 60;

export interface LotsView extends LoadedIncludes {
  lots: Lot[];
  convert: Converter;
}

export type CreatedLot = { lot: Lot; request?: undefined } | { request: CreateLotRequest; lot?: undefined };

export class LotsService {
  private readonly createSchema;

  constructor(
    reference: ReferenceService,
    private readonly requests: RequestsService,
    private readonly currency: CurrencyService,
    private readonly clock: LotClock,
    private readonly listing = new LotListing(),
  ) {
    this.createSchema = createLotSchema(reference);
  }

  /**
   * POST /lots: platform staff create the lot on their platform; anyone else files a create_lot
   * request for review by their platform.
   */
  async create(ctx: RequestContext, input: ResourceInput): Promise<CreatedLot> {
    const caller = requireCaller(ctx);
    requireActive(caller);
    const attrs = validateAttributes(this.createSchema, input.attributes);
    if (attrs.start_time !== undefined && attrs.start_time < Date.now() / 1000 - START_TIME_TOLERANCE_S) {
      throw invalid('start_time_past', 'start_time is more than 60 seconds in the past', { attribute: 'start_time' });
    }
    const draft = draftOf(attrs);
    const [publisher] = staffPlatforms(caller).filter((p) => p === caller.accountId || p === caller.platformId);
    return inTransaction(ctx, async (em, scope) => {
      if (publisher) return { lot: await this.createFromDraft(em, scope, draft, caller.accountId, publisher) };
      if (!caller.platformId) throw invalid('no_platform', 'the caller belongs to no platform');
      return { request: await this.requests.submit(em, scope, caller.accountId, caller.platformId, draft) };
    });
  }

  /** Makes a lot from a normalised body (direct creation, or an approved request); its notices are scheduled once committed. */
  async createFromDraft(em: EntityManager, scope: TransactionScope, draft: LotDraft, organizerId: string, publisherId: string): Promise<Lot> {
    const lot = em.create(Lot, lotFieldsOf(draft, organizerId, publisherId));
    await em.flush();
    scope.afterCommit(() => this.clock.lotTimesSet([lot]));
    return lot;
  }

  /** GET /lots/{id}; `currency` shows the prices in another supported currency. */
  async get(ctx: RequestContext, id: string, include: ReadonlySet<string> = new Set(), currency?: string): Promise<LotsView> {
    if (currency !== undefined && !isCurrency(currency)) {
      throw invalid('invalid_parameter', `currency must be one of ${CURRENCIES.join(', ')}`, { parameter: 'currency' });
    }
    const lot = await findLot(ctx.em, id);
    const rates = await this.currency.rates(ctx.em);
    return { lots: [lot], convert: converterOf(rates), ...(await loadIncludes(ctx, [lot], include)) };
  }

  /** GET /lots: one page of lots, with what the page shows beside them. */
  async index(ctx: RequestContext, req: LotPageRequest, include: ReadonlySet<string> = new Set()): Promise<LotsView & { next: string | null; prev: string | null }> {
    const rates = await this.currency.rates(ctx.em);
    const page = await this.listing.page(ctx, req, rates);
    return { lots: page.items, next: page.next, prev: page.prev, convert: converterOf(rates), ...(await loadIncludes(ctx, page.items, include)) };
  }

  async count(ctx: RequestContext, filter: LotFilter): Promise<number> {
    return this.listing.count(ctx, filter, await this.currency.rates(ctx.em));
  }
}
