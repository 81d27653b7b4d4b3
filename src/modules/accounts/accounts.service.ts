import { QueryOrder } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { z } from 'zod';
import type { RequestContext } from '../../core/context';
import { conflict, forbidden, invalid, notFound, unauthenticated, type ErrorSource } from '../../core/errors';
import { hashPassword } from '../../core/passwords';
import { isStaffOf, requireCaller, staffPlatforms } from '../../core/policies';
import { uniquely } from '../../core/unique';
import { validateAttributes, type ResourceInput } from '../../core/validate';
import { Credential } from '../credentials/credentials.entity';
import type { LedgerAccounts } from '../ledger/ledger.port';
import type { ReferenceService } from '../reference/reference.service';
import type { VerificationService } from '../verification/verification.service';
import { LotType } from '../lots/lots.entity';
import { findLot } from '../lots/lots.find';
import { Account, AccountType } from './accounts.entity';
import { accountId, createAccountSchema, updateAccountSchema } from './accounts.input';
import type { AccountView } from './accounts.presenter';

const TYPE_OF = { user: AccountType.User, admin: AccountType.Admin, broker: AccountType.Broker } as const;

const LISTED_TYPES = { platform: AccountType.Platform, ...TYPE_OF } as const;
const listInput = z.object({
  platform_id: z.string().min(1).optional(),
  account_type: z.enum(['platform', 'user', 'admin', 'broker'], { error: 'must be platform, user, admin or broker' }).optional(),
  limit: z.number().int().min(1, 'must be 1 to 100').max(100, 'must be 1 to 100').optional(),
  offset: z.number().int().min(0, 'must not be negative').optional(),
});
export type AccountListInput = z.input<typeof listInput>;

/** Where a filter of the directory lookups was given: an attribute (GraphQL argument) unless the edge says otherwise. */
export type FilterSource = (field: 'platform_id' | 'region' | 'lot_id') => ErrorSource;
const asAttribute: FilterSource = (field) => ({ attribute: field });
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const BY_NAME = [{ lastName: QueryOrder.ASC_NULLS_LAST }, { firstName: QueryOrder.ASC_NULLS_LAST }, { id: QueryOrder.ASC }];

export class AccountsService {
  private readonly createSchema;
  private readonly updateSchema;

  constructor(
    reference: ReferenceService,
    private readonly verification: VerificationService,
    private readonly ledger: LedgerAccounts,
  ) {
    this.createSchema = createAccountSchema(reference);
    this.updateSchema = updateAccountSchema(reference);
  }

  /** The caller's own account. */
  async me(ctx: RequestContext): Promise<Account> {
    const caller = requireCaller(ctx);
    const account = await ctx.em.findOne(Account, { id: caller.accountId });
    if (!account) throw notFound('account_not_found', 'the caller has no account');
    return account;
  }

  /**
   * POST /accounts. A user may register itself (the request signed by the new account's own key);
   * platform staff create users, admins and brokers. The password creates the credentials, and the
   * verification tokens go out with the account.
   */
  async create(ctx: RequestContext, input: ResourceInput): Promise<Account> {
    if (!ctx.caller && !ctx.provenKey) throw unauthenticated('unauthenticated', 'the request must be signed');
    const id = accountId.safeParse(input.id);
    if (!id.success) throw invalid('invalid_field', 'data.id must be an account id (G…)', { pointer: '/data/id' });
    const attrs = validateAttributes(this.createSchema, input.attributes);

    const platform = await ctx.em.findOne(Account, { id: attrs.platform_id, accountType: AccountType.Platform });
    if (!platform) throw invalid('platform_not_found', 'platform_id names no platform', { attribute: 'platform_id' });
    const selfRegistration = attrs.account_type === 'user' && ctx.provenKey === id.data;
    if (!selfRegistration && !isStaffOf(ctx.caller, platform.id)) {
      throw forbidden('not_allowed', `the signing account may not create ${attrs.account_type} accounts on this platform`);
    }

    const passwordHash = await hashPassword(attrs.password);
    return uniquely(
      () =>
        ctx.em.transactional(async (em) => {
        if (await em.count(Account, { id: id.data })) throw conflict('account_exists', 'an account with this id exists', { pointer: '/data/id' });
        await this.assertEmailFree(em, platform.id, attrs.email);
        const account = em.create(Account, {
          id: id.data,
          accountType: TYPE_OF[attrs.account_type],
          platformId: platform.id,
          firstName: attrs.first_name,
          lastName: attrs.last_name,
          email: attrs.email,
          phoneNumber: attrs.phone_number ?? null,
          brokerCities: attrs.broker_cities ?? [],
          socialTokenA: attrs.social_token_a ?? null,
          socialTokenB: attrs.social_token_b ?? null,
          avatarLink: attrs.avatar_link ?? null,
          country: attrs.country ?? null,
          countryId: attrs.country_id ?? null,
          cityId: attrs.city_id ?? null,
          city: attrs.city ?? null,
          region: attrs.region ?? null,
          address: attrs.address ?? null,
          company: attrs.company ?? null,
          currency: attrs.currency ?? null,
          locale: attrs.locale ?? null,
        });
        await em.flush();
        em.persist(em.create(Credential, { accountId: account.id, passwordHash }));
        await em.flush();
        await this.ledger.open(em, account.id);
        await this.verification.issue(em, account, 'email', false);
        await this.verification.issue(em, account, 'phone', false);
        return account;
      }),
      () => conflict('account_exists', 'the account id or email is taken'),
    );
  }

  private async assertEmailFree(em: EntityManager, platformId: string, email: string): Promise<void> {
    const taken = await em
      .getConnection()
      .execute('select 1 from accounts where platform_id = ? and lower(email) = lower(?) limit 1', [platformId, email], 'all', em.getTransactionContext());
    if (taken.length) throw conflict('email_taken', 'this email is used by another account of the platform', { attribute: 'email' });
  }

  /** GET /accounts/{id}: the full record for the account and its platform's staff, else the public view. */
  async get(ctx: RequestContext, id: string): Promise<AccountView> {
    const account = await ctx.em.findOne(Account, { id, accountType: { $ne: AccountType.Master } });
    if (!account) throw notFound('account_not_found', 'no account with this id');
    return { account, full: this.seesFull(ctx, account) };
  }

  seesFull(ctx: RequestContext, account: Account): boolean {
    return ctx.caller?.accountId === account.id || isStaffOf(ctx.caller, account.platformId);
  }

  /** PATCH /accounts/{id}: the account itself or staff of its platform. */
  async update(ctx: RequestContext, id: string, attributes: unknown): Promise<Account> {
    const caller = requireCaller(ctx);
    return ctx.em.transactional(async (em) => {
      const account = await em.findOne(Account, { id, accountType: { $ne: AccountType.Master } });
      if (!account) throw notFound('account_not_found', 'no account with this id');
      if (caller.accountId !== account.id && !isStaffOf(caller, account.platformId)) {
        throw forbidden('not_allowed', 'the signing account may not update this account');
      }
      const attrs = validateAttributes(this.updateSchema, attributes);
      const map = {
        first_name: 'firstName',
        last_name: 'lastName',
        avatar_link: 'avatarLink',
        country: 'country',
        city: 'city',
        region: 'region',
        address: 'address',
        company: 'company',
        currency: 'currency',
        locale: 'locale',
      } as const;
      for (const [key, prop] of Object.entries(map) as [keyof typeof map, (typeof map)[keyof typeof map]][]) {
        if (attrs[key] !== undefined) account[prop] = attrs[key] as string;
      }
      return account;
    });
  }

  /** GraphQL `accounts`: staff list the accounts of their platforms (one of them with `platform_id`). */
  async list(ctx: RequestContext, input: AccountListInput): Promise<Account[]> {
    const platforms = staffPlatforms(requireCaller(ctx));
    if (!platforms.length) throw forbidden('not_allowed', 'only platform staff may list accounts');
    const q = validateAttributes(listInput, input);
    if (q.platform_id !== undefined && !platforms.includes(q.platform_id)) {
      throw forbidden('not_allowed', 'the caller is not staff of this platform');
    }
    return ctx.em.find(
      Account,
      {
        platformId: q.platform_id ?? { $in: platforms },
        accountType: q.account_type ? LISTED_TYPES[q.account_type] : { $ne: AccountType.Master },
      },
      { orderBy: [{ createdAt: QueryOrder.ASC }, { id: QueryOrder.ASC }], limit: q.limit ?? 15, offset: q.offset ?? 0 },
    );
  }

  /**
   * GET /brokers (public), the three cases of INTERFACE.md §4.4: for a direct sale organised by a
   * user of the platform, that organizer's contacts; else, with a region, the brokers and admins
   * of the platform in that region (case-insensitive); else every broker of the platform.
   */
  async brokers(
    ctx: RequestContext,
    filter: { platformId: string; region?: string | null; lotId?: string | null },
    at: FilterSource = asAttribute,
  ): Promise<Account[]> {
    const platformId = this.directoryPlatform(filter.platformId, at);
    const region = filter.region?.trim();
    if (filter.region !== undefined && filter.region !== null && (!region || region.length > 30)) {
      throw invalid('invalid_parameter', 'region must be 1 to 30 characters', at('region'));
    }
    if (filter.lotId) {
      const lot = await findLot(ctx.em, filter.lotId, undefined, at('lot_id'));
      const organizer = lot.lotType === LotType.NoAuction ? await ctx.em.findOne(Account, { id: lot.organizerId }) : null;
      if (organizer?.accountType === AccountType.User && organizer.platformId === platformId) return [organizer];
    }
    return ctx.em.find(
      Account,
      region
        ? { platformId, accountType: { $in: [AccountType.Broker, AccountType.Admin] }, region: { $ilike: likeLiteral(region) } }
        : { platformId, accountType: AccountType.Broker },
      { orderBy: BY_NAME },
    );
  }

  /** GET /admins (public): the admins hosted by the platform. */
  async admins(ctx: RequestContext, filter: { platformId: string }, at: FilterSource = asAttribute): Promise<Account[]> {
    const platformId = this.directoryPlatform(filter.platformId, at);
    return ctx.em.find(Account, { platformId, accountType: AccountType.Admin }, { orderBy: BY_NAME });
  }

  private directoryPlatform(platformId: string, at: FilterSource): string {
    if (!accountId.safeParse(platformId).success) throw invalid('invalid_parameter', 'platform_id must be an account id (G…)', at('platform_id'));
    return platformId;
  }
}
