import { Arg, Ctx, Mutation, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { CredentialsGql, TokenGql } from './credentials.types';

@Resolver()
export class CredentialsResolver {
  @Mutation(() => CredentialsGql, { description: 'Sets the first password of the signing account (PUT /credentials)' })
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

  @Mutation(() => CredentialsGql, { description: "Changes the bearer token's account password (PATCH /credentials)" })
  changePassword(
    @Arg('oldPassword', () => String) oldPassword: string,
    @Arg('newPassword', () => String) newPassword: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<CredentialsGql> {
    return services.credentials.changePassword(ctx, { oldPassword, newPassword });
  }
}
