import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { payloadOf } from '../../graphql/user-errors';
import { asStored } from '../idempotency';
import { accountGql } from './accounts.types';
import {
  type ConfirmContactInput,
  type ConfirmContactPayloadGql,
  ConfirmEmailInput,
  ConfirmEmailPayloadGql,
  ConfirmPhoneInput,
  ConfirmPhonePayloadGql,
  SendVerificationInput,
  SendVerificationPayloadGql,
} from './verification.types';

type Confirmed = Omit<ConfirmContactPayloadGql, 'userErrors'>;
type Sent = Omit<SendVerificationPayloadGql, 'userErrors'>;

/** The payload versions of verifyEmail, verifyPhone and resendVerification: the same service operations, refusals in userErrors. */
@Resolver()
export class VerificationResolver {
  @Mutation(() => ConfirmEmailPayloadGql, { description: 'PATCH /accounts/verification/email; a refusal is answered in userErrors' })
  confirmEmail(@Arg('input', () => ConfirmEmailInput) input: ConfirmEmailInput, @Ctx() context: GraphQLContext): Promise<ConfirmContactPayloadGql> {
    return confirm('email', input, context);
  }

  @Mutation(() => ConfirmPhonePayloadGql, { description: 'PATCH /accounts/verification/phone; a refusal is answered in userErrors' })
  confirmPhone(@Arg('input', () => ConfirmPhoneInput) input: ConfirmPhoneInput, @Ctx() context: GraphQLContext): Promise<ConfirmContactPayloadGql> {
    return confirm('phone', input, context);
  }

  @Mutation(() => SendVerificationPayloadGql, { description: 'GET /accounts/verification/resend: new tokens to email and/or phone; a refusal is answered in userErrors' })
  sendVerification(@Arg('input', () => SendVerificationInput) { idempotencyKey, accountId, receivers }: SendVerificationInput, @Ctx() { ctx, services }: GraphQLContext): Promise<SendVerificationPayloadGql> {
    // The argument is a set: a channel named twice is sent once, and the order names no other call.
    const call = { accountId, receivers: [...new Set(receivers)].sort() };
    return payloadOf<Sent>({ accountId: null, receivers: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'sendVerification', input: call }, asStored<Sent>(), async () => {
        await services.verification.resend(ctx, call);
        return call;
      }),
    );
  }
}

function confirm(channel: 'email' | 'phone', { idempotencyKey, accountId, token }: ConfirmContactInput, { ctx, services }: GraphQLContext): Promise<ConfirmContactPayloadGql> {
  const operation = channel === 'email' ? 'confirmEmail' : 'confirmPhone';
  // The token is a secret: the key stands for the account's confirmation, whatever token it carried.
  return payloadOf<Confirmed>({ account: null }, () =>
    services.idempotency.once(ctx, { key: idempotencyKey, operation, input: { accountId } }, asStored<Confirmed>(), async () => ({
      account: accountGql(await services.verification.verify(ctx, channel, { accountId, token }), 'verified'),
    })),
  );
}
