import type { JwtClaims, JwtService } from '../../auth/jwt';
import type { RequestContext } from '../../core/context';
import { forbidden, notFound } from '../../core/errors';
import { Account } from '../accounts/accounts.entity';

export function claimsOf(account: Account): JwtClaims {
  return {
    sub: account.id,
    account_type: account.accountType,
    platform_id: account.platformId,
    trusting_platforms: account.trustingPlatforms,
    email_verified: account.emailVerified,
    phone_verified: account.phoneVerified,
  };
}

export class CredentialsService {
  constructor(private readonly jwt: JwtService) {}

  /** PATCH /jwt: a still-valid bearer token buys a new one with a new expiry. */
  async refreshToken(ctx: RequestContext): Promise<{ accountId: string; token: string }> {
    if (!ctx.jwtSubject) throw forbidden('jwt_required', 'a valid bearer token is required');
    const account = await ctx.em.findOne(Account, { id: ctx.jwtSubject });
    if (!account) throw notFound('account_not_found', 'no account for the account id inside the token');
    return { accountId: account.id, token: await this.jwt.issue(claimsOf(account)) };
  }
}
