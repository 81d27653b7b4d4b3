import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller, RequestContext } from '../../core/context';
import { conflict, forbidden, invalid, notFound } from '../../core/errors';
import { integerId } from '../../core/ids';
import { isStaffOf, managesLot, requireActive, requireCaller } from '../../core/policies';
import { uniquely } from '../../core/unique';
import { validateInput, type Untrusted } from '../../core/validate';
import { Account } from '../accounts';
import { AccountType } from '../../core/account-type';
import { Lot, findLot } from '../lots';
import { Callback, Star } from './watchlist.entity';
import { callbackInput, callbackRequestInput, starInput, watchlistInput, type CallbackInput, type CallbackRequestInput, type StarInput, type WatchlistInput } from './watchlist.input';
import { NotificationType, staffOf, type NotificationsService } from '../notifications';
import { listBound } from '../../core/page';
import { inTransaction } from '../../core/transaction';
import type { ListWindow, WindowPage } from '../../core/list-window';
import { timestamp } from '../../db/raw';
import { sql } from '../../db/sql';
import { windowOf } from '../../db/window';

/**
 * Watchlists (stars) and callback requests.
 *
 * A watchlist is managed by its account and by staff of the account's platform. A callback is
 * requested by any active account and withdrawn by that account, the lot's organizer or staff of
 * its publisher. Both rows are unique (per account and lot): the database's unique index decides
 * between concurrent requests.
 */
export class WatchlistService {
  constructor(private readonly notifications: NotificationsService) {}

  /** POST /accounts/{id}/stars. */
  async star(ctx: RequestContext, input: Untrusted<StarInput>): Promise<Star> {
    const caller = requireCaller(ctx);
    const given = validateInput(starInput, input);
    const account = await this.managedAccount(ctx.em, caller, given.accountId);
    const lotSource = { field: 'lotId' };
    const lotId = integerId(given.lotId);
    if (lotId === null) {
      const missing = given.lotId === undefined || given.lotId === null;
      throw invalid(missing ? 'missing_field' : 'invalid_field', missing ? 'the lot id is required' : 'the lot id must be an integer-valued string', lotSource);
    }
    return uniquely(
      () =>
        inTransaction(ctx, async (em) => {
          if (!(await em.count(Lot, { id: lotId }))) throw notFound('lot_not_found', 'no lot with this id', lotSource);
          // An INSERT of its own, not create and flush: a star this request already made is in the
          // identity map, and a flush would answer it as made again instead of meeting the unique key.
          const star = Object.assign(new Star(), { accountId: account.id, lotId, createdAt: new Date() });
          await em.insert(Star, { ...star });
          return star;
        }),
      () => conflict('star_exists', 'the lot is already in the watchlist', lotSource),
    );
  }

  /** DELETE /accounts/{id}/stars/{lot-id}. */
  async unstar(ctx: RequestContext, input: Untrusted<StarInput>): Promise<void> {
    const caller = requireCaller(ctx);
    const { accountId, lotId } = validateInput(starInput, input);
    const account = await this.managedAccount(ctx.em, caller, accountId);
    const id = integerId(lotId);
    const removed = id === null ? 0 : await inTransaction(ctx, (em) => em.nativeDelete(Star, { accountId: account.id, lotId: id }));
    if (!removed) throw notFound('star_not_found', 'the lot is not in the watchlist');
  }

  /** The account's watchlist, newest first (GraphQL `watchlist`; REST lists it as GET /lots?filter[stars_of]). */
  async list(ctx: RequestContext, input: Untrusted<WatchlistInput>): Promise<Star[]> {
    const caller = requireCaller(ctx);
    const { accountId, limit } = validateInput(watchlistInput, input);
    const bound = listBound(limit, 'limit');
    const account = await this.managedAccount(ctx.em, caller, accountId);
    return ctx.em.find(Star, { accountId: account.id }, { orderBy: { createdAt: 'desc', lotId: 'desc' }, limit: bound });
  }

  /** A window of the account's watchlist, newest first, paged in the database (`Viewer.watchlist`). */
  async window(ctx: RequestContext, accountId: string, window: ListWindow): Promise<WindowPage<Star>> {
    const caller = requireCaller(ctx);
    listBound(window.size, window.fromEnd ? 'last' : 'first');
    const account = await this.managedAccount(ctx.em, caller, accountId);
    const page = await windowOf<{ account_id: string; lot_id: string; created_at: unknown }>(
      ctx.em,
      { columns: sql`s.account_id, s.lot_id, s.created_at`, from: sql`stars s`, where: sql`s.account_id = ${account.id}`, order: { key: sql`s.created_at`, id: sql`s.lot_id` } },
      window,
    );
    return { ...page, items: page.items.map((r) => Object.assign(new Star(), { accountId: r.account_id, lotId: String(r.lot_id), createdAt: timestamp(r.created_at) as Date })) };
  }

  /** POST /lots/{id}/callbacks: the caller asks to be called back about the lot. */
  async requestCallback(ctx: RequestContext, input: Untrusted<CallbackRequestInput>): Promise<Callback> {
    const caller = requireCaller(ctx);
    const lot = await findLot(ctx.em, validateInput(callbackRequestInput, input).lotId);
    requireActive(caller);
    return uniquely(
      () =>
        inTransaction(ctx, async (em, scope) => {
          const callback = em.create(Callback, { lotId: lot.id, accountId: caller.accountId });
          await em.flush();
          await this.notifications.emit(em, scope, NotificationType.CallbackRequested, await staffOf(em, lot.publisherId), {
            lot_id: lot.id,
            account_id: caller.accountId,
          });
          return callback;
        }),
      () => conflict('callback_exists', 'a callback about this lot is already requested'),
    );
  }

  /**
   * DELETE /lots/{id}/callbacks/{account-id}: the requester itself, the lot's organizer or staff
   * of its publisher. Permission is decided before the callback's existence, so that no one else
   * learns whether an account asked for a callback.
   */
  async deleteCallback(ctx: RequestContext, input: Untrusted<CallbackInput>): Promise<void> {
    const caller = requireCaller(ctx);
    const { lotId, accountId } = validateInput(callbackInput, input);
    const lot = await findLot(ctx.em, lotId);
    if (caller.accountId !== accountId && !managesLot(ctx.caller, lot)) {
      throw forbidden('not_allowed', "only the requester, the lot's organizer or staff of its publisher may delete this callback");
    }
    const removed = await inTransaction(ctx, (em) => em.nativeDelete(Callback, { lotId: lot.id, accountId }));
    if (!removed) throw notFound('callback_not_found', 'this account has no callback request on this lot');
  }

  /**
   * The account whose watchlist is addressed: 404 when there is none, 403 unless the caller is
   * that account or staff of its platform.
   */
  private async managedAccount(em: EntityManager, caller: Caller, id: string): Promise<Account> {
    const account = await em.findOne(Account, { id, accountType: { $ne: AccountType.Master } });
    if (!account) throw notFound('account_not_found', 'no account with this id');
    if (caller.accountId !== account.id && !isStaffOf(caller, account.platformId)) {
      throw forbidden('not_allowed', "only the account itself or staff of its platform may manage its watchlist");
    }
    return account;
  }
}
