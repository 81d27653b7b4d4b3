import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { payloadOf } from '../../graphql/user-errors';
import { asStored } from '../idempotency';
import { AddCredentialsInput, AddCredentialsPayloadGql, CredentialsGql, TokenGql, UpdatePasswordInput, UpdatePasswordPayloadGql } from './credentials.types';

type Changed = Omit<AddCredentialsPayloadGql, 'userErrors'>;

@Resolver()
export class CredentialsResolver {
  @Mutation(() => CredentialsGql, { description: 'Sets the first password of the signing account (PUT /credentials)', deprecationReason: 'Use addCredentials' })
  createCredentials(
    @Arg('accountId', () => String) accountId: string,
    @Arg('password', () => String) password: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<CredentialsGql> {
    return services.credentials.create(ctx, { accountId, password });
  }

  @Mutation(() => TokenGql, { description: 'Signs in by accountId, or by email with platformId (POST /jwt)' })
  issueToken(
    @Arg('password', () => String) password: string,
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('accountId', () => String, { nullable: true }) accountId?: string,
    @Arg('email', () => String, { nullable: true }) email?: string,
    @Arg('platformId', () => String, { nullable: true }) platformId?: string,
  ): Promise<TokenGql> {
    return services.credentials.issueToken(ctx, { accountId, email, platformId, password });
  }

  @Mutation(() => TokenGql, { description: 'A new token for a still-valid bearer token' })
  refreshToken(@Ctx() { ctx, services }: GraphQLContext): Promise<TokenGql> {
    return services.credentials.refreshToken(ctx);
  }

  @Mutation(() => CredentialsGql, { description: "Changes the bearer token's account password (PATCH /credentials)", deprecationReason: 'Use updatePassword' })
  changePassword(
    @Arg('oldPassword', () => String) oldPassword: string,
    @Arg('newPassword', () => String) newPassword: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<CredentialsGql> {
    return services.credentials.changePassword(ctx, { oldPassword, newPassword });
  }

  // The passwords are secrets, so no part of what a key stands for: an account's password change
  // under one key is that call whatever passwords it is sent again with.

  @Mutation(() => AddCredentialsPayloadGql, { description: 'Sets the first password of the signing account (PUT /credentials); a refusal is answered in userErrors' })
  addCredentials(@Arg('input', () => AddCredentialsInput) { idempotencyKey, accountId, password }: AddCredentialsInput, @Ctx() { ctx, services }: GraphQLContext): Promise<AddCredentialsPayloadGql> {
    return payloadOf<Changed>({ credentials: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'addCredentials', input: { accountId } }, asStored<Changed>(), async () => ({
        credentials: await services.credentials.create(ctx, { accountId, password }),
      })),
    );
  }

  @Mutation(() => UpdatePasswordPayloadGql, { description: "Changes the bearer token's account password (PATCH /credentials); a refusal is answered in userErrors, a wrong old password is a 401" })
  updatePassword(@Arg('input', () => UpdatePasswordInput) { idempotencyKey, oldPassword, newPassword }: UpdatePasswordInput, @Ctx() { ctx, services }: GraphQLContext): Promise<UpdatePasswordPayloadGql> {
    return payloadOf<Changed>({ credentials: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'updatePassword', input: {} }, asStored<Changed>(), async () => ({
        credentials: await services.credentials.changePassword(ctx, { oldPassword, newPassword }),
      })),
    );
  }
}
