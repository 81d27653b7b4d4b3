import { Arg, Ctx, Extensions, Mutation, Resolver } from 'type-graphql';
import { withoutNulls } from '../../core/validate';
import type { GraphQLContext } from '../../graphql/context';
import { SELF_REGISTRATION } from '../../graphql/guards';
import { payloadOf } from '../../graphql/user-errors';
import { asStored } from '../idempotency';
import { accountGql } from './accounts.types';
import { RegisterAccountInput, RegisterAccountPayloadGql, RegisterPlatformInput, RegisterPlatformPayloadGql } from './registration.types';

type Registered = Omit<RegisterAccountPayloadGql, 'userErrors'>;

/** The payload versions of createAccount and createPlatform: the same service operations, refusals in userErrors. */
@Resolver()
export class RegistrationResolver {
  @Extensions(SELF_REGISTRATION)
  @Mutation(() => RegisterAccountPayloadGql, { description: 'POST /accounts: self-registration of a user (signed by the new key) or creation by platform staff; a refusal is answered in userErrors' })
  registerAccount(@Arg('input', () => RegisterAccountInput) input: RegisterAccountInput, @Ctx() { ctx, services }: GraphQLContext): Promise<RegisterAccountPayloadGql> {
    const { idempotencyKey, ...attributes } = input;
    const { password, ...keyed } = withoutNulls(attributes);
    return payloadOf<Registered>({ account: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'registerAccount', input: keyed }, asStored<Registered>(), async () => ({
        account: accountGql(await services.accounts.create(ctx, { ...keyed, password }), 'full'),
      })),
    );
  }

  @Mutation(() => RegisterPlatformPayloadGql, { description: 'POST /platforms: the seed (master key or one of its signers) authenticates; a refusal is answered in userErrors' })
  registerPlatform(@Arg('input', () => RegisterPlatformInput) input: RegisterPlatformInput, @Ctx() { ctx, services }: GraphQLContext): Promise<RegisterPlatformPayloadGql> {
    const { idempotencyKey, ...attributes } = input;
    const { seed, ...keyed } = withoutNulls(attributes);
    return payloadOf<Registered>({ account: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'registerPlatform', input: keyed }, asStored<Registered>(), async () => ({
        account: accountGql(await services.platforms.createPlatform(ctx, { ...keyed, seed }), 'full'),
      })),
    );
  }
}
