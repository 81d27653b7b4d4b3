import { timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { forbidden, invalid, notFound } from '../../core/errors';
import { hashPassword } from '../../core/passwords';
import { recoveryToken, TOKEN_LIFETIME_MS, tokenHash } from '../../core/tokens';
import { validateInput, type Untrusted } from '../../core/validate';
import { inTransaction } from '../../core/transaction';
import { type Account, accountId } from '../accounts';
import { Credential, findAccount, findAccountByEmail, accountSubject, emailSubject, type SignInLimit } from '../credentials';
import type { Outbox } from '../outbox';
import { RecoveryRequest } from './recovery.entity';
import { approveRecoveryInput, recoveryByEmailInput, type ApproveRecoveryInput, type RequestRecoveryInput } from './recovery.input';

const present = (v: unknown) => v !== undefined && v !== null;
const idSource = { field: 'accountId' };

/** Password recovery: a 20-character token sent to the verified email, used once within 24 hours. */
export class RecoveryService {
  constructor(
    private readonly outbox: Outbox,
    private readonly signInLimit: SignInLimit,
  ) {}

  /** PUT /recovery_requests: replaces any earlier request of the account with a new token. */
  async request(ctx: RequestContext, input: Untrusted<RequestRecoveryInput>): Promise<void> {
    const account = await this.identify(ctx.em, input);
    if (!(await ctx.em.count(Credential, { accountId: account.id }))) {
      throw notFound('credentials_not_found', 'the account has no credentials to recover');
    }
    if (!account.email || !account.emailVerified) {
      throw invalid('email_not_verified', "the account's email address is not verified");
    }
    const email = account.email;
    const token = recoveryToken();
    await inTransaction(ctx, async (em) => {
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

  /** accountId, or email together with platformId. */
  private async identify(em: EntityManager, input: Untrusted<RequestRecoveryInput>): Promise<Account> {
    if (present(input.accountId)) {
      const id = accountId.safeParse(input.accountId);
      if (!id.success) throw invalid('invalid_field', 'accountId must be an account id (G…)', idSource);
      const account = await findAccount(em, id.data);
      if (!account) throw notFound('account_not_found', 'no account with this id', idSource);
      return account;
    }
    const attrs = validateInput(recoveryByEmailInput, input);
    if (!attrs.email || !attrs.platformId) {
      const member = attrs.email ? 'platformId' : attrs.platformId ? 'email' : null;
      const detail = 'identify the account by its id, or by email together with its platform';
      throw invalid('identification_incomplete', detail, member ? { field: member } : idSource);
    }
    const account = await findAccountByEmail(em, attrs.platformId, attrs.email);
    if (!account) throw notFound('account_not_found', 'no account with this email on this platform', { field: 'email' });
    return account;
  }

  /** PATCH /recovery_requests: the token of the account's request sets a new password, once. */
  async approve(ctx: RequestContext, input: Untrusted<ApproveRecoveryInput>): Promise<void> {
    // The account id's fault is the one reported: the rest of the input is not looked at.
    if (!present(input.accountId)) throw invalid('missing_field', 'accountId is required', idSource);
    if (typeof input.accountId !== 'string' || input.accountId === '') throw invalid('invalid_field', 'accountId must be an account id', idSource);
    const attrs = validateInput(approveRecoveryInput, input);
    const id = attrs.accountId;

    const request = await ctx.em.findOne(RecoveryRequest, { accountId: id }, { disableIdentityMap: true });
    if (!request) throw notFound('recovery_not_found', 'no recovery request for this account', idSource);
    if (!(await ctx.em.count(Credential, { accountId: id }))) throw notFound('credentials_not_found', 'the account has no credentials');
    const hash = tokenHash(attrs.token);
    const invalidToken = () => forbidden('invalid_recovery_token', 'the recovery token is wrong, used or expired');
    if (!timingSafeEqual(hash, request.tokenHash) || request.usedAt || request.expiresAt <= new Date()) throw invalidToken();

    const passwordHash = await hashPassword(attrs.newPassword);
    await inTransaction(ctx, async (em) => {
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
