import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Extensions, FieldResolver, Info, Int, Query, Resolver, Root } from 'type-graphql';
import { listBound, MAX_PAGE_SIZE } from '../../core/page';
import type { GraphQLContext } from '../../graphql/context';
import type { Source } from '../../graphql/source';
import { ConnectionArgs, connectionOfList, pageWindow, type ConnectionSource } from '../../graphql/types/connection';
import { AccountIdConnectionGql } from '../accounts';
import { PingType } from './system.types';
import { runsNoStatement, runsStatement } from '../../graphql/statement-cost';

@Resolver(() => PingType)
export class SystemResolver {
  @Extensions(runsStatement())
  @Query(() => PingType)
  ping(@Ctx() { ctx, services }: GraphQLContext): Promise<PingType> {
    return services.system.ping(ctx);
  }

  @Extensions(runsNoStatement())
  @FieldResolver(() => [String])
  platforms(@Root() ping: Source<PingType>, @Arg('limit', () => Int, { defaultValue: MAX_PAGE_SIZE }) limit: number): string[] {
    return ping.platforms.slice(0, listBound(limit, 'limit'));
  }

  @Extensions(runsNoStatement())
  @FieldResolver(() => AccountIdConnectionGql, { description: 'Account ids of the platforms, oldest first' })
  platformsConnection(@Root() ping: Source<PingType>, @Args(() => ConnectionArgs) page: ConnectionArgs, @Info() info: GraphQLResolveInfo): ConnectionSource<string> {
    return connectionOfList(pageWindow(page, 'Ping.platforms', info), ping.platforms, (id) => id);
  }
}
