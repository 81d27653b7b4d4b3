import type { RequestContext } from '../../core/context';
import { notFound } from '../../core/errors';
import { requireCaller } from '../../core/policies';
import { Account } from './accounts.entity';

export class AccountsService {
  /** The caller's own account. */
  async me(ctx: RequestContext): Promise<Account> {
    const caller = requireCaller(ctx);
    const account = await ctx.em.findOne(Account, { id: caller.accountId });
    if (!account) throw notFound('account_not_found', 'the caller has no account');
    return account;
  }
}
