import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';

@Resolver()
export class RecoveryResolver {
  @Mutation(() => Boolean, { description: 'Sends a password recovery token to the verified email (PUT /recovery_requests)' })
  async requestRecovery(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('accountId', () => String, { nullable: true }) accountId?: string,
    @Arg('email', () => String, { nullable: true }) email?: string,
    @Arg('platformId', () => String, { nullable: true }) platformId?: string,
  ): Promise<boolean> {
    await services.recovery.request(ctx, { accountId, email, platformId });
    return true;
  }

  @Mutation(() => Boolean, { description: 'Sets a new password with the recovery token, once (PATCH /recovery_requests)' })
  async approveRecovery(
    @Arg('accountId', () => String) accountId: string,
    @Arg('token', () => String) token: string,
    @Arg('newPassword', () => String) newPassword: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<boolean> {
    await services.recovery.approve(ctx, { accountId, token, newPassword });
    return true;
  }
}
