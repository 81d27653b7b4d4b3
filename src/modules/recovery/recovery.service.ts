import { timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { RequestContext } from '../../core/context';
import { forbidden, invalid, notFound } from '../../core/errors';
import { hashPassword } from '../../core/passwords';
import { recoveryToken, TOKEN_LIFETIME_MS, tokenHash } from '../../core/tokens';
import { validateAttributes, type ResourceInput } from '../../core/validate';
import type { Account } from '../accounts/accounts.entity';
import { accountId, password } from '../accounts/accounts.input';
import { Credential } from '../credentials/credentials.entity';
import { findAccount, findAccountByEmail } from '../credentials/credentials.service';
import { accountSubject, emailSubject, type SignInLimit } from '../credentials/sign-in-limit';
import type { Outbox } from '../outbox/outbox.port';
import { RecoveryRequest } from './recovery.entity';

const requestSchema = z.object({
  email: z.string().trim().min(1, 'must not be empty').max(254).nullish(),
  platform_id: accountId.nullish(),
});
const approveSchema = z.object({ token: z.string().min(1, 'must not be empty').max(64), new_password: password });

const present = (v: unknown) => v !== undefined && v !== null;
const idSource = { pointer: '/data/id' };

/** Password recovery: a 20-character token sent to the verified email, used once within 24 hours. */
export class RecoveryService {
  constructor(
    private readonly outbox: Outbox,
    private readonly signInLimit: SignInLimit,
  ) {}

  /** PUT /recovery_requests: replaces any earlier request of the account with a new token. */
  async request(ctx: RequestContext, input: ResourceInput): Promise<void> {
    const account = await this.identify(ctx.em, input);
    if (!(await ctx.em.count(Credential, { accountId: account.id }))) {
      throw notFound('credentials_not_found', 'the account has no credentials to recover');
    }
    if (!account.email || !account.emailVerified) {
      throw invalid('email_not_verified', "the account's email address is not verified");
    }
    const email = account.email;
    const token = recoveryToken();
    await ctx.em.transactional(async (em) => {
      await em.upsert(RecoveryRequest, {
        accountId: account.id,
        tokenHash: tokenHash(token),
        expiresAt: new Date(Date.now() + TOKEN_LIFETIME_MS),
        usedAt: null,
        createdAt: new Date(),
      });
      await this.outbox.send(em, {
        channel: 'email',
        recipient: email,
        accountId: account.id,
        platformId: account.platformId,
        subject: 'Reset your password',
        body: `Use this token to set a new password. It is valid for 24 hours, once.\nToken: ${token}\n`,
      });
    });
  }

  /** data.id, or attributes email together with platform_id. */
  private async identify(em: EntityManager, input: ResourceInput): Promise<Account> {
    if (present(input.id)) {
      const id = accountId.safeParse(input.id);
      if (!id.success) throw invalid('invalid_field', 'data.id must be an account id (G…)', idSource);
      const account = await findAccount(em, id.data);
      if (!account) throw notFound('account_not_found', 'no account with this id', idSource);
      return account;
    }
    const attrs = validateAttributes(requestSchema, input.attributes);
    if (!attrs.email || !attrs.platform_id) {
      const member = attrs.email ? 'platform_id' : attrs.platform_id ? 'email' : null;
      const detail = 'identify the account by data.id, or by email together with platform_id';
      throw invalid('identification_incomplete', detail, member ? { attribute: member } : idSource);
    }
    const account = await findAccountByEmail(em, attrs.platform_id, attrs.email);
    if (!account) throw notFound('account_not_found', 'no account with this email on this platform', { attribute: 'email' });
    return account;
  }

  /** PATCH /recovery_requests: the token of the account's request sets a new password, once. */
  async approve(ctx: RequestContext, input: ResourceInput): Promise<void> {
    if (!present(input.id)) throw invalid('missing_field', 'data.id is required', idSource);
    if (typeof input.id !== 'string' || input.id === '') throw invalid('invalid_field', 'data.id must be an account id', idSource);
    const id = input.id;
    const attrs = validateAttributes(approveSchema, input.attributes);

    const request = await ctx.em.findOne(RecoveryRequest, { accountId: id }, { disableIdentityMap: true });
    if (!request) throw notFound('recovery_not_found', 'no recovery request for this account', idSource);
    if (!(await ctx.em.count(Credential, { accountId: id }))) throw notFound('credentials_not_found', 'the account has no credentials');
    const hash = tokenHash(attrs.token);
    const invalidToken = () => forbidden('invalid_recovery_token', 'the recovery token is wrong, used or expired');
    if (!timingSafeEqual(hash, request.tokenHash) || request.usedAt || request.expiresAt <= new Date()) throw invalidToken();

    const passwordHash = await hashPassword(attrs.new_password);
    await ctx.em.transactional(async (em) => {
      const used = await em.nativeUpdate(
        RecoveryRequest,
        { accountId: id, tokenHash: hash, usedAt: null, expiresAt: { $gt: new Date() } },
        { usedAt: new Date() },
      );
      if (used !== 1) throw invalidToken();
      await em.nativeUpdate(Credential, { accountId: id }, { passwordHash, updatedAt: new Date() });
      const account = await findAccount(em, id);
      const subjects = [accountSubject(id), ...(account?.email && account.platformId ? [emailSubject(account.platformId, account.email)] : [])];
      await this.signInLimit.forget(em, subjects);
    });
  }
}
