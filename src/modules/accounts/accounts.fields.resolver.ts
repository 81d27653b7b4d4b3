import { Arg, FieldResolver, Int, Resolver, Root } from 'type-graphql';
import { listBound, MAX_PAGE_SIZE } from '../../core/page';
import type { Source } from '../../graphql/source';
import { AccountGql } from './accounts.types';

@Resolver(() => AccountGql)
export class AccountFieldsResolver {
  /** An operator may let an admin serve any number of platforms: the answer, and so its cost, is bounded. */
  @FieldResolver(() => [String], { nullable: true })
  trustingPlatforms(@Root() account: Source<AccountGql>, @Arg('limit', () => Int, { defaultValue: MAX_PAGE_SIZE }) limit: number): string[] | null {
    const bound = listBound(limit, 'limit');
    return account.trustingPlatforms && account.trustingPlatforms.slice(0, bound);
  }
}
