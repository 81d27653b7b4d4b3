import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { payloadOf } from '../../graphql/user-errors';
import { asStored } from '../idempotency';
import { accountGql } from './accounts.types';
import { type ConfirmContactInput, type ConfirmContactPayloadGql, ConfirmEmailInput, ConfirmEmailPayloadGql, ConfirmPhoneInput, ConfirmPhonePayloadGql } from './verification.types';

type Confirmed = Omit<ConfirmContactPayloadGql, 'userErrors'>;

/** The payload versions of verifyEmail and verifyPhone: the same service operation, refusals in userErrors. */
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
}

function confirm(channel: 'email' | 'phone', { idempotencyKey, accountId, token }: ConfirmContactInput, { ctx, services }: GraphQLContext): Promise<ConfirmContactPayloadGql> {
  const call = { accountId, token };
  const operation = channel === 'email' ? 'confirmEmail' : 'confirmPhone';
  return payloadOf<Confirmed>({ account: null }, () =>
    services.idempotency.once(ctx, { key: idempotencyKey, operation, input: call }, asStored<Confirmed>(), async () => ({ account: accountGql(await services.verification.verify(ctx, channel, call), 'verified') })),
  );
}
