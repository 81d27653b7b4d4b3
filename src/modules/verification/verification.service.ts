import type { EntityManager } from '@mikro-orm/postgresql';
import { LockMode } from '@mikro-orm/core';
import type { RequestContext } from '../../core/context';
import { invalid, notFound, rateLimited, unauthenticated } from '../../core/errors';
import { validateInput, type Untrusted } from '../../core/validate';
import { emailToken, phoneToken, TOKEN_LIFETIME_MS, tokenHash } from '../../core/tokens';
import { inTransaction } from '../../core/transaction';
import { Account } from '../accounts';
import type { Outbox } from '../outbox';
import { VerificationToken, type VerificationChannel } from './verification.entity';
import { resendInput, verifyInput, type ResendInput, type VerifyInput } from './verification.input';

const RESEND_INTERVAL_MS = 60_000;

/** Email and phone verification tokens: created with the account, resent on request, used once. */
export class VerificationService {
  constructor(private readonly outbox: Outbox) {}

  /** Replaces any unused token of the channel with a new one and sends it. */
  async issue(em: EntityManager, account: Account, channel: VerificationChannel, resend: boolean): Promise<void> {
    const recipient = channel === 'email' ? account.email : account.phoneNumber;
    if (!recipient) return;
    await em.nativeUpdate(VerificationToken, { accountId: account.id, channel, usedAt: null }, { usedAt: new Date() });
    const token = channel === 'email' ? emailToken() : phoneToken();
    em.persist(
      em.create(VerificationToken, {
        accountId: account.id,
        channel,
        tokenHash: tokenHash(token),
        resend,
        expiresAt: new Date(Date.now() + TOKEN_LIFETIME_MS),
      }),
    );
    await this.outbox.send(em, {
      channel: channel === 'email' ? 'email' : 'sms',
      recipient,
      accountId: account.id,
      platformId: account.platformId,
      subject: channel === 'email' ? 'Confirm your email address' : 'Your phone verification code',
      body: `Use this token to verify your ${channel === 'email' ? 'email address' : 'phone number'}.\nToken: ${token}\n`,
    });
  }

  /** GET /accounts/verification/resend: at most once a minute per account and channel. */
  async resend(ctx: RequestContext, input: Untrusted<ResendInput>): Promise<void> {
    const { accountId, receivers } = validateInput(resendInput, input);
    await inTransaction(ctx, async (em) => {
      const account = await em.findOne(Account, { id: accountId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!account) throw notFound('account_not_found', 'no account with this id', { field: 'accountId' });
      for (const channel of receivers) {
        if (channel === 'phone' && !account.phoneNumber) {
          throw invalid('no_phone_number', 'the account has no phone number', { field: 'receivers' });
        }
        const recent = await em.findOne(
          VerificationToken,
          { accountId, channel, resend: true, createdAt: { $gt: new Date(Date.now() - RESEND_INTERVAL_MS) } },
          { orderBy: { createdAt: 'desc' } },
        );
        if (recent) {
          const until = new Date(recent.createdAt.getTime() + RESEND_INTERVAL_MS);
          throw rateLimited('resend_too_soon', `the ${channel} token was resent less than a minute ago`, until, { field: 'receivers' });
        }
        await this.issue(em, account, channel, true);
      }
    });
  }

  /** PATCH /accounts/verification/{email|phone}: a valid, unused, unexpired token sets the flag. */
  async verify(ctx: RequestContext, channel: VerificationChannel, input: Untrusted<VerifyInput>): Promise<Account> {
    // A missing or malformed account id is the one fault reported, before the token is looked at.
    if (typeof input.accountId !== 'string' || input.accountId === '') throw invalid('invalid_field', 'accountId must be an account id', { field: 'accountId' });
    const { accountId, token } = validateInput(verifyInput, input);
    return inTransaction(ctx, async (em) => {
      const account = await em.findOne(Account, { id: accountId });
      if (!account) throw notFound('account_not_found', 'no account with this id', { field: 'accountId' });
      const used = await em.nativeUpdate(
        VerificationToken,
        { accountId, channel, tokenHash: tokenHash(token), usedAt: null, expiresAt: { $gt: new Date() } },
        { usedAt: new Date() },
      );
      if (used !== 1) throw unauthenticated('invalid_token', 'the token is wrong, used or expired');
      if (channel === 'email') account.emailVerified = true;
      else account.phoneVerified = true;
      return account;
    });
  }
}
