import type { Caller, RequestContext } from '../../core/context';
import { forbidden, invalid, notFound } from '../../core/errors';
import { listBound } from '../../core/page';
import { isStaffOf, requireCaller, staffPlatforms } from '../../core/policies';
import { validateInput, type Untrusted } from '../../core/validate';
import { inTransaction } from '../../core/transaction';
import { rowsOf } from '../../db/query';
import { sql } from '../../db/sql';
import { windowOf } from '../../db/window';
import type { ListWindow, WindowPage } from '../../core/list-window';
import { Account, BlacklistEntry, accountId } from '../accounts';
import { AccountType, type BlacklistState } from '../../core/account-type';
import type { LivePublisher } from '../../live/live.port';
import { blacklistInput, type BlacklistInput } from './blacklist.input';

const idSource = { field: 'accountId' };

/** A `blacklist` row as the listing reads it. */
interface BlacklistColumns {
  account_id: string;
  state: BlacklistState;
}

export interface BlacklistItem {
  accountId: string;
  state: BlacklistState;
}

/**
 * The blacklist: staff of an account's platform stop
 * or pause it. Its effects are enforced where requests are authenticated (`account_blocked`) and
 * by `requireActive` (`account_paused`).
 */
export class BlacklistService {
  constructor(private readonly live?: LivePublisher) {}

  /** GET /blacklist: the blacklisted accounts of the platforms whose staff the caller is. */
  async list(ctx: RequestContext, last?: number): Promise<BlacklistItem[]> {
    const platforms = this.staffOnly(requireCaller(ctx));
    // The newest `last` (GraphQL bounds it), answered oldest first; REST asks for no bound and
    // lists them all, as the contract does (LIMIT NULL is no limit).
    const bound = last === undefined ? null : listBound(last, 'last');
    const entries = await rowsOf<BlacklistColumns>(
      ctx.em,
      sql`select account_id, state from (
            select b.account_id, b.state, b.created_at from blacklist b join accounts a on a.id = b.account_id
            where a.platform_id in (${sql.list(platforms)})
            order by b.created_at desc, b.account_id desc limit ${bound}
          ) newest order by created_at, account_id`,
    );
    return entries.map((e) => ({ accountId: e.account_id, state: e.state }));
  }

  /** `blacklistConnection`: the entries `list` shows, oldest first, one window paged in the database. */
  async window(ctx: RequestContext, window: ListWindow): Promise<WindowPage<BlacklistItem>> {
    const platforms = this.staffOnly(requireCaller(ctx));
    listBound(window.size, window.fromEnd ? 'last' : 'first');
    const page = await windowOf<BlacklistColumns>(
      ctx.em,
      {
        columns: sql`b.account_id, b.state`,
        from: sql`blacklist b join accounts a on a.id = b.account_id`,
        where: sql`a.platform_id in (${sql.list(platforms)})`,
        order: { key: sql`b.created_at`, id: sql`b.account_id`, ascending: true, textId: true },
      },
      window,
    );
    return { ...page, items: page.items.map((e) => ({ accountId: e.account_id, state: e.state })) };
  }

  /** PUT /blacklist: adds the account, or changes its state. */
  async put(ctx: RequestContext, input: Untrusted<BlacklistInput>): Promise<BlacklistItem> {
    const caller = requireCaller(ctx);
    // The account is found and the caller checked before the state is looked at.
    const id = accountId.safeParse(input.accountId);
    if (!id.success) {
      const missing = input.accountId === undefined || input.accountId === null;
      throw invalid(missing ? 'missing_field' : 'invalid_field', missing ? 'the account id is required' : 'the account id must be an account id (G…)', idSource);
    }
    const item = await inTransaction(ctx, async (em) => {
      const target = await em.findOne(Account, { id: id.data, accountType: { $ne: AccountType.Master } });
      if (!target) throw notFound('account_not_found', 'no account with this id', idSource);
      this.assertMayManage(caller, target);
      const { state } = validateInput(blacklistInput, input);
      await em.upsert(BlacklistEntry, { accountId: target.id, state }, { onConflictFields: ['accountId'], onConflictMergeFields: ['state'] });
      return { accountId: target.id, state };
    });
    // After the commit, so that a socket closed for the stop cannot reconnect before it holds.
    if (item.state === 'stopped') this.live?.publishAccountStopped(item.accountId);
    return item;
  }

  /** DELETE /blacklist/{id}: takes the account off the list. */
  async remove(ctx: RequestContext, id: string): Promise<void> {
    const caller = requireCaller(ctx);
    await inTransaction(ctx, async (em) => {
      const entry = await em.findOne(BlacklistEntry, { accountId: id });
      if (!entry) throw notFound('not_blacklisted', 'this account is not blacklisted');
      const target = await em.findOneOrFail(Account, { id });
      this.assertMayManage(caller, target);
      em.remove(entry);
    });
  }

  private staffOnly(caller: Caller): string[] {
    const platforms = staffPlatforms(caller);
    if (!platforms.length) throw forbidden('not_allowed', 'only platform staff may manage the blacklist');
    return platforms;
  }

  /**
   * Staff of the target's platform; never the caller itself, and an admin never its platform
   * account (a platform account is blacklisted by nobody through the API).
   */
  private assertMayManage(caller: Caller, target: Account): void {
    if (!isStaffOf(caller, target.platformId)) throw forbidden('not_allowed', "only staff of the account's platform may blacklist it");
    if (target.id === caller.accountId) throw invalid('cannot_blacklist_self', 'an account cannot change its own blacklist entry');
    if (target.accountType === AccountType.Platform) throw forbidden('not_allowed', 'a platform account cannot be blacklisted by its admins');
  }
}
