import { Ctx, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { ACCOUNT_TYPE_NAMES } from './accounts.entity';
import { AccountGql } from './accounts.types';

@Resolver()
export class AccountsResolver {
  @Query(() => AccountGql, { description: "The caller's own account" })
  async me(@Ctx() { rc, services }: GraphQLContext): Promise<AccountGql> {
    const account = await services.accounts.me(rc);
    return {
      id: account.id,
      accountType: account.accountType,
      accountTypeStr: ACCOUNT_TYPE_NAMES[account.accountType],
      platformId: account.platformId,
    };
  }
}
