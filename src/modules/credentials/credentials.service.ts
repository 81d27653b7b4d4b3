import type { EntityManager } from '@mikro-orm/postgresql';
import { rowsOf } from '../../db/query';
import { sql } from '../../db/sql';
import type { JwtClaims, JwtService } from '../../auth/jwt';
import type { RequestContext } from '../../core/context';
import { conflict, DomainError, forbidden, notFound, unauthenticated, type ErrorItem } from '../../core/errors';
import { hashPassword, verifyPassword } from '../../core/passwords';
import { requireCaller } from '../../core/policies';
import { uniquely } from '../../core/unique';
import { validateInput, type Untrusted } from '../../core/validate';
import { inTransaction } from '../../core/transaction';
import { Account, BlacklistEntry } from '../accounts';
import { AccountType } from '../../core/account-type';
import type { AccountColumns } from '../../core/account-columns';
import { Credential } from './credentials.entity';
import {
  changePasswordInput,
  createCredentialsInput,
  issueTokenInput,
  type ChangePasswordInput,
  type CreateCredentialsInput,
  type IssueTokenInput,
} from './credentials.input';
import { addressGroup } from '../limits';
import { accountSubject, addressSubject, emailSubject, fromAddress, fromStrangers, MAX_FAILURES, SignInLimit } from './sign-in-limit';

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

/** The account (never the master) with this email on this platform; emails compare case-insensitively. */
export async function findAccountByEmail(em: EntityManager, platformId: string, email: string): Promise<Account | null> {
  const rows = await rowsOf<Pick<AccountColumns, 'id'>>(em, sql`select id from accounts where platform_id = ${platformId} and lower(email) = lower(${email.trim()}) and account_type <> ${AccountType.Master} limit 1`);
  return rows.length ? em.findOne(Account, { id: rows[0].id }) : null;
}

export const findAccount = (em: EntityManager, id: string) => em.findOne(Account, { id, accountType: { $ne: AccountType.Master } });

/** Read past the identity map: a change earlier in the same request (a GraphQL batch) is seen. */
export const storedCredential = (em: EntityManager, id: string) => em.findOne(Credential, { accountId: id }, { disableIdentityMap: true });

const present = (v: unknown) => v !== undefined && v !== null;

/** Which member is missing when neither identification of POST /jwt is complete, else null. */
function identificationGap(given: Untrusted<IssueTokenInput>): ErrorItem | null {
  if (present(given.accountId) || (present(given.email) && present(given.platformId))) return null;
  const member = present(given.email) ? 'platformId' : present(given.platformId) ? 'email' : 'accountId';
  return {
    code: 'identification_incomplete',
    detail: `${member} is required: identify the account by its id, or by email together with its platform`,
    source: { field: member },
  };
}

export interface TokenResult {
  accountId: string;
  token: string;
}

export class CredentialsService {
  constructor(
    private readonly jwt: JwtService,
    /** Failed sign-ins from one address, on any accounts, that refuse its further attempts for a while. */
    private readonly failuresPerAddress: number,
    readonly signInLimit = new SignInLimit(),
  ) {}

  /** The password of an account being opened, inside the transaction that opens it. */
  async storePassword(em: EntityManager, accountId: string, passwordHash: string): Promise<void> {
    em.persist(em.create(Credential, { accountId, passwordHash }));
    await em.flush();
  }

  /** PUT /credentials: the account itself sets its first password. */
  async create(ctx: RequestContext, input: Untrusted<CreateCredentialsInput>): Promise<{ accountId: string }> {
    const caller = requireCaller(ctx);
    // The account is found and the caller checked before the password is looked at.
    const { accountId } = validateInput(createCredentialsInput.pick({ accountId: true }), { accountId: input.accountId });
    const account = await findAccount(ctx.em, accountId);
    if (!account) throw notFound('account_not_found', 'no account with this id', { field: 'accountId' });
    if (caller.accountId !== account.id) throw forbidden('not_allowed', 'credentials are created by the account itself');
    const attrs = validateInput(createCredentialsInput, input);
    const exists = () => conflict('credentials_exist', 'credentials for this account id exist', { field: 'accountId' });
    if (await ctx.em.count(Credential, { accountId: account.id })) throw exists();

    const passwordHash = await hashPassword(attrs.password);
    await uniquely(
      () =>
        inTransaction(ctx, async (em) => {
          em.persist(em.create(Credential, { accountId: account.id, passwordHash }));
        }),
      exists,
    );
    return { accountId: account.id };
  }

  /**
   * POST /jwt. An unknown account and a wrong password get the same answer after the same work.
   * Past 10 failures in 15 minutes per account or per email from the caller's address, or from all
   * the addresses it has not signed in from together (when the caller's is one of them), or
   * `failuresPerAddress` from the address on any accounts, the password is not even checked.
   */
  async issueToken(ctx: RequestContext, input: Untrusted<IssueTokenInput>): Promise<TokenResult> {
    const attrs = this.identification(input);
    const account = attrs.accountId
      ? await findAccount(ctx.em, attrs.accountId)
      : await findAccountByEmail(ctx.em, attrs.platformId as string, attrs.email as string);
    const subjects = [attrs.accountId ? accountSubject(attrs.accountId) : emailSubject(attrs.platformId as string, attrs.email as string)];
    if (account) subjects.push(accountSubject(account.id));
    const address = addressGroup(ctx.address);
    // Asked for an unknown account too (of an id no row has), so that it costs what a known one does.
    const familiar = await this.signInLimit.familiar(ctx.em, account?.id ?? attrs.accountId ?? '', address);
    const limits = [
      ...subjects.map((s) => ({ subject: fromAddress(s, address), max: MAX_FAILURES })),
      ...(familiar ? [] : subjects.map((s) => ({ subject: fromStrangers(s), max: MAX_FAILURES }))),
      { subject: addressSubject(address), max: this.failuresPerAddress },
    ];

    const reservation = await this.signInLimit.reserve(ctx.em, limits);
    const credential = account ? await storedCredential(ctx.em, account.id) : null;
    const valid = await verifyPassword(attrs.password, credential?.passwordHash ?? null);
    if (!valid || !account) throw unauthenticated('invalid_credentials', 'the account id, email or password is wrong');
    await this.signInLimit.release(ctx.em, reservation);
    await this.signInLimit.remember(ctx.em, account.id, address);

    const entry = await ctx.em.findOne(BlacklistEntry, { accountId: account.id });
    if (entry?.state === 'stopped') throw unauthenticated('account_blocked', 'this account is blocked');
    return { accountId: account.id, token: await this.jwt.issue(claimsOf(account)) };
  }

  private identification(input: Untrusted<IssueTokenInput>) {
    const gap = identificationGap(input ?? {});
    let attrs;
    try {
      attrs = validateInput(issueTokenInput, input);
    } catch (err) {
      if (gap && err instanceof DomainError) throw new DomainError('invalid', [...err.items, gap]);
      throw err;
    }
    if (gap) throw new DomainError('invalid', [gap]);
    return attrs;
  }

  /** PATCH /jwt: a still-valid bearer token buys a new one with a new expiry. */
  async refreshToken(ctx: RequestContext): Promise<TokenResult> {
    if (!ctx.jwtSubject) throw forbidden('jwt_required', 'a valid bearer token is required');
    const account = await ctx.em.findOne(Account, { id: ctx.jwtSubject });
    if (!account) throw notFound('account_not_found', 'no account for the account id inside the token');
    return { accountId: account.id, token: await this.jwt.issue(claimsOf(account)) };
  }

  /** PATCH /credentials: needs a bearer token (a signature alone does not do) and the old password. */
  async changePassword(ctx: RequestContext, input: Untrusted<ChangePasswordInput>): Promise<{ accountId: string }> {
    if (!ctx.jwtSubject) throw forbidden('jwt_required', 'a valid bearer token is required');
    const account = await ctx.em.findOne(Account, { id: ctx.jwtSubject });
    if (!account) throw notFound('account_not_found', 'no account for the account id inside the token');
    const attrs = validateInput(changePasswordInput, input);
    const credential = await storedCredential(ctx.em, account.id);
    if (!credential) throw notFound('credentials_not_found', 'the account has no credentials');
    const stored = credential.passwordHash;
    if (!(await verifyPassword(attrs.oldPassword, stored))) throw unauthenticated('wrong_password', 'the old password is wrong');

    const passwordHash = await hashPassword(attrs.newPassword);
    // Only over the password just verified: a change that raced this one wins, and this one fails.
    const changed = await inTransaction(ctx, (em) =>
      em.nativeUpdate(Credential, { accountId: account.id, passwordHash: stored }, { passwordHash, updatedAt: new Date() }),
    );
    if (changed !== 1) throw unauthenticated('wrong_password', 'the password changed meanwhile');
    return { accountId: account.id };
  }
}
