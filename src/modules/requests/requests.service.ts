import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller, RequestContext } from '../../core/context';
import { forbidden, invalid, notFound } from '../../core/errors';
import { isStaffOf, requireCaller, staffPlatforms } from '../../core/policies';
import { validateInput, type Untrusted } from '../../core/validate';
import { Account } from '../accounts';
import { AccountType } from '../../core/account-type';
import type { CurrencyService } from '../currency';
import type { LotDraft, LotMaker } from '../lots';
import { CreateLotRequest, RequestState } from './requests.entity';
import { requestHash } from './requests.hash';
import {
  getRequestInput,
  listInput,
  REQUEST_ID,
  requestRef,
  reviewInput,
  type AccountRequestListInput,
  type AccountRequestWindowInput,
  type GetRequestInput,
  type RequestListInput,
  type RequestListQuery,
  type RequestRef,
  type RequestWindowInput,
  type ReviewInput,
  windowInput,
} from './requests.input';
import { listRequests, windowOfRequests, type RequestScope } from './requests.listing';
import { listBound } from '../../core/page';
import type { ListWindow, WindowPage } from '../../core/list-window';
import type { RequestPricing } from './requests.view';
import { NotificationType, staffOf, type NotificationsService } from '../notifications';
import { inTransaction, type TransactionScope } from '../../core/transaction';

export interface RequestView {
  request: CreateLotRequest;
  /** Set when the prices are to be shown in another currency. */
  pricing?: RequestPricing;
}

/** A window of requests (`requestsConnection`), with the pricing of the currency asked for. */
export type RequestWindow = WindowPage<CreateLotRequest> & { pricing?: RequestPricing };

export interface RequestPage {
  items: CreateLotRequest[];
  total: number;
  page: number;
  size: number;
  pricing?: RequestPricing;
}

const REVIEW_STATES = {
  approved: RequestState.Approved,
  rejected: RequestState.Rejected,
  permanently_rejected: RequestState.PermanentlyRejected,
} as const;
const CANCELABLE = new Set([RequestState.Pending, RequestState.Rejected]);

/**
 * Create-lot (reviewable) requests: a
 * user's lot body waits for its platform's staff, who approve it (the lot is created with the
 * requestor as organizer) or reject it; the requestor may cancel it.
 */
export class RequestsService {
  constructor(
    private readonly currency: CurrencyService,
    private readonly lots: LotMaker,
    private readonly notifications: NotificationsService,
  ) {}

  /** Files a user's create-lot body for review by the user's platform (inside the caller's transaction). */
  async submit(em: EntityManager, scope: TransactionScope, requestor: string, platformId: string, draft: LotDraft): Promise<CreateLotRequest> {
    const request = em.create(CreateLotRequest, { requestor, platformId, body: draft, hash: requestHash(draft) });
    await em.flush();
    await this.notifications.emit(em, scope, NotificationType.NewUpload, await staffOf(em, platformId), { request_id: request.id });
    return request;
  }

  /** GET /requests/{id}: the requestor and staff of the request's platform; anyone else gets 404. */
  async get(ctx: RequestContext, input: Untrusted<GetRequestInput>): Promise<RequestView> {
    const caller = requireCaller(ctx);
    const { id, currency } = validateInput(getRequestInput, input);
    const request = await this.find(ctx.em, id);
    if (!this.sees(caller, request)) throw this.missing();
    return { request, pricing: await this.pricing(ctx.em, currency) };
  }

  /** GET /requests: the caller's own requests and those of the platforms whose staff it is. */
  async list(ctx: RequestContext, input: Untrusted<RequestListInput>): Promise<RequestPage> {
    return this.page(ctx, this.callerScope(ctx), validateInput(listInput, input));
  }

  /** `requestsConnection`: the requests `list` finds, newest first, one window paged in the database. */
  async window(ctx: RequestContext, input: Untrusted<RequestWindowInput>, window: ListWindow): Promise<RequestWindow> {
    return this.windowIn(ctx, this.callerScope(ctx), input, window);
  }

  /**
   * GET /accounts/{id}/create_lot_requests: the requests the account filed (or, for a platform,
   * must review); for the account itself and staff of its platform.
   */
  async listOfAccount(ctx: RequestContext, input: Untrusted<AccountRequestListInput>): Promise<RequestPage> {
    return this.page(ctx, await this.accountScope(ctx, input.accountId), validateInput(listInput, input));
  }

  /** `accountCreateLotRequestsConnection`: the requests `listOfAccount` finds, newest first, one window paged in the database. */
  async windowOfAccount(ctx: RequestContext, input: Untrusted<AccountRequestWindowInput>, window: ListWindow): Promise<RequestWindow> {
    return this.windowIn(ctx, await this.accountScope(ctx, input.accountId), input, window);
  }

  private callerScope(ctx: RequestContext): RequestScope {
    const caller = requireCaller(ctx);
    return { callerId: caller.accountId, staffOf: staffPlatforms(caller) };
  }

  /** The account itself and staff of its platform see the requests it filed or must review. */
  private async accountScope(ctx: RequestContext, accountId: unknown): Promise<RequestScope> {
    const caller = requireCaller(ctx);
    const account = await ctx.em.findOne(Account, { id: String(accountId), accountType: { $ne: AccountType.Master } });
    if (!account) throw notFound('account_not_found', 'no account with this id');
    if (caller.accountId !== account.id && !isStaffOf(caller, account.platformId)) {
      throw forbidden('not_allowed', "only the account itself and staff of its platform may list the account's requests");
    }
    return { callerId: caller.accountId, staffOf: staffPlatforms(caller), accountId: account.id };
  }

  /**
   * PATCH /requests/{id}: staff of the request's platform approve or reject a pending request
   * whose hash they quote. The row is locked, so of two reviews at once exactly one applies.
   */
  async review(ctx: RequestContext, input: Untrusted<ReviewInput>): Promise<CreateLotRequest> {
    const caller = requireCaller(ctx);
    return inTransaction(ctx, async (em, scope) => {
      const request = await this.find(em, input.id, true);
      const callerPlatforms = new Set([...staffPlatforms(caller), ...(caller.platformId ? [caller.platformId] : [])]);
      if (!callerPlatforms.has(request.platformId) && caller.accountId !== request.requestor) throw this.missing();
      if (!isStaffOf(caller, request.platformId)) throw forbidden('not_allowed', "only staff of the request's platform may review it");
      const attrs = validateInput(reviewInput, input);
      if (request.requestState !== RequestState.Pending) {
        throw invalid('request_not_pending', 'only a pending request can be reviewed', { field: 'state' });
      }
      if (attrs.hash !== request.hash) {
        throw invalid('hash_mismatch', 'hash is not the hash of the request body', { field: 'hash' });
      }
      request.requestState = REVIEW_STATES[attrs.state];
      if (request.requestState === RequestState.Approved) {
        const lot = await this.lots.make(em, scope, request.body, request.requestor, request.platformId, 'now');
        request.lotId = lot.id;
        await this.notifications.emit(em, scope, NotificationType.DirectSaleApproved, [request.requestor], { lot_id: lot.id });
      } else {
        request.rejectReason = attrs.rejectReason ?? '';
        await this.notifications.emit(em, scope, NotificationType.DirectSaleRejected, [request.requestor], { request_id: request.id });
      }
      await em.flush();
      return request;
    });
  }

  /** DELETE /requests/{id}: the requestor cancels a pending or rejected request. */
  async cancel(ctx: RequestContext, input: Untrusted<RequestRef>): Promise<void> {
    const caller = requireCaller(ctx);
    const { id } = validateInput(requestRef, input);
    await inTransaction(ctx, async (em) => {
      const request = await this.find(em, id, true);
      if (request.requestor !== caller.accountId) throw forbidden('not_allowed', 'only the requestor may cancel a request');
      if (!CANCELABLE.has(request.requestState)) {
        throw invalid('request_not_cancelable', 'only a pending or rejected request can be canceled');
      }
      request.requestState = RequestState.Canceled;
      await em.flush();
    });
  }

  private async page(ctx: RequestContext, scope: RequestScope, q: RequestListQuery): Promise<RequestPage> {
    const { items, total } = await listRequests(ctx.em, scope, q);
    return { items, total, page: q.page, size: q.size, pricing: await this.pricing(ctx.em, q.currency) };
  }

  private async windowIn(ctx: RequestContext, scope: RequestScope, input: Untrusted<RequestWindowInput>, window: ListWindow): Promise<RequestWindow> {
    listBound(window.size, window.fromEnd ? 'last' : 'first');
    const q = validateInput(windowInput, input);
    return { ...(await windowOfRequests(ctx.em, scope, q, window)), pricing: await this.pricing(ctx.em, q.currency) };
  }

  private async pricing(em: EntityManager, currency: string | undefined): Promise<RequestPricing | undefined> {
    return currency === undefined ? undefined : { currency, convert: await this.currency.converter(em) };
  }

  private sees(caller: Caller, request: CreateLotRequest): boolean {
    return request.requestor === caller.accountId || isStaffOf(caller, request.platformId);
  }

  private async find(em: EntityManager, id: unknown, lock = false): Promise<CreateLotRequest> {
    if (typeof id !== 'string' || !REQUEST_ID.test(id)) throw invalid('invalid_request_id', 'the request id must be an integer');
    const request = await em.findOne(CreateLotRequest, { id }, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
    if (!request) throw this.missing();
    return request;
  }

  private missing() {
    return notFound('request_not_found', 'no request with this id');
  }
}
