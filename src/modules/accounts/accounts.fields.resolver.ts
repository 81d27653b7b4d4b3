import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Extensions, FieldResolver, Info, Int, Resolver, Root } from 'type-graphql';
import { listBound, MAX_PAGE_SIZE } from '../../core/page';
import type { Source } from '../../graphql/source';
import { ConnectionArgs, connectionOfList, pageWindow, type ConnectionSource } from '../../graphql/types/connection';
import { AccountIdConnectionGql } from './accounts.connection.types';
import { AccountGql } from './accounts.types';
import { runsNoStatement } from '../../graphql/statement-cost';

@Resolver(() => AccountGql)
export class AccountFieldsResolver {
  /** An operator may let an admin serve any number of platforms: the answer, and so its cost, is bounded. */
  @Extensions(runsNoStatement())
  @FieldResolver(() => [String], { nullable: true })
  trustingPlatforms(@Root() account: Source<AccountGql>, @Arg('limit', () => Int, { defaultValue: MAX_PAGE_SIZE }) limit: number): string[] | null {
    const bound = listBound(limit, 'limit');
    return account.trustingPlatforms && account.trustingPlatforms.slice(0, bound);
  }

  @Extensions(runsNoStatement())
  @FieldResolver(() => AccountIdConnectionGql, { nullable: true, description: 'Admins only: the platforms it is staff of besides its own, as stored; null for other accounts and in the public view' })
  trustingPlatformsConnection(@Root() account: Source<AccountGql>, @Args(() => ConnectionArgs) page: ConnectionArgs, @Info() info: GraphQLResolveInfo): ConnectionSource<string> | null {
    const window = pageWindow(page, `Account:${account.id}.trustingPlatforms`, info);
    return account.trustingPlatforms && connectionOfList(window, account.trustingPlatforms, (id) => id);
  }
}
