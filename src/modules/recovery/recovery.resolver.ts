import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { payloadOf } from '../../graphql/user-errors';
import { asStored } from '../idempotency';
import { ConfirmRecoveryInput, ConfirmRecoveryPayloadGql, StartRecoveryInput, StartRecoveryPayloadGql } from './recovery.types';

type Started = Omit<StartRecoveryPayloadGql, 'userErrors'>;
type Confirmed = Omit<ConfirmRecoveryPayloadGql, 'userErrors'>;

@Resolver()
export class RecoveryResolver {
  @Mutation(() => Boolean, { description: 'Sends a password recovery token to the verified email (PUT /recovery_requests)', deprecationReason: 'Use startRecovery' })
  async requestRecovery(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('accountId', () => String, { nullable: true }) accountId?: string,
    @Arg('email', () => String, { nullable: true }) email?: string,
    @Arg('platformId', () => String, { nullable: true }) platformId?: string,
  ): Promise<boolean> {
    await services.recovery.request(ctx, { accountId, email, platformId });
    return true;
  }

  @Mutation(() => Boolean, { description: 'Sets a new password with the recovery token, once (PATCH /recovery_requests)', deprecationReason: 'Use confirmRecovery' })
  async approveRecovery(
    @Arg('accountId', () => String) accountId: string,
    @Arg('token', () => String) token: string,
    @Arg('newPassword', () => String) newPassword: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<boolean> {
    await services.recovery.approve(ctx, { accountId, token, newPassword });
    return true;
  }

  @Mutation(() => StartRecoveryPayloadGql, { description: 'Sends a password recovery token to the verified email (PUT /recovery_requests); a refusal is answered in userErrors' })
  startRecovery(@Arg('input', () => StartRecoveryInput) { idempotencyKey, accountId, email, platformId }: StartRecoveryInput, @Ctx() { ctx, services }: GraphQLContext): Promise<StartRecoveryPayloadGql> {
    const call = { accountId, email, platformId };
    return payloadOf<Started>({ sent: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'startRecovery', input: call }, asStored<Started>(), async () => {
        await services.recovery.request(ctx, call);
        return { sent: true };
      }),
    );
  }

  @Mutation(() => ConfirmRecoveryPayloadGql, { description: 'Sets a new password with the recovery token, once (PATCH /recovery_requests); a refusal is answered in userErrors' })
  confirmRecovery(@Arg('input', () => ConfirmRecoveryInput) { idempotencyKey, accountId, token, newPassword }: ConfirmRecoveryInput, @Ctx() { ctx, services }: GraphQLContext): Promise<ConfirmRecoveryPayloadGql> {
    // The token and the password are secrets: the key stands for the account's recovery, whatever it carried.
    return payloadOf<Confirmed>({ accountId: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'confirmRecovery', input: { accountId } }, asStored<Confirmed>(), async () => {
        await services.recovery.approve(ctx, { accountId, token, newPassword });
        return { accountId };
      }),
    );
  }
}
