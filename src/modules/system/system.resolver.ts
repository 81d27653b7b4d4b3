import { Ctx, Query, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { PingType } from './system.types';

@Resolver()
export class SystemResolver {
  @Query(() => PingType)
  ping(@Ctx() { ctx, services }: GraphQLContext): Promise<PingType> {
    return services.system.ping(ctx);
  }
}
