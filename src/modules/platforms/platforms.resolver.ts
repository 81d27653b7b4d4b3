import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';

@Resolver()
export class PlatformsResolver {
  @Mutation(() => Boolean, { description: 'Adds a signer of the master account; loopback callers only' })
  async addMasterSigner(
    @Arg('publicKey', () => String) publicKey: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<boolean> {
    await services.platforms.addMasterSigner(ctx, { publicKey });
    return true;
  }
}
