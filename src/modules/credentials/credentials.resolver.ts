import { Ctx, Mutation, Resolver } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { TokenGql } from './credentials.types';

@Resolver()
export class CredentialsResolver {
  @Mutation(() => TokenGql, { description: 'A new token for a still-valid bearer token' })
  refreshToken(@Ctx() { rc, services }: GraphQLContext): Promise<TokenGql> {
    return services.credentials.refreshToken(rc);
  }
}
