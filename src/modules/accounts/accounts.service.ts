import { QueryOrder } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { conflict, forbidden, invalid, notFound, unauthenticated } from '../../core/errors';
import { listBound } from '../../core/page';

import { hashPassword } from '../../core/passwords';
import { isStaffOf, registersItself, requireCaller, seesFullAccount, staffPlatforms } from '../../core/policies';
import { uniquely } from '../../core/unique';
import { validateInput, type Untrusted } from '../../core/validate';
import { inTransaction } from '../../core/transaction';
import { rowsOf } from '../../db/query';
import { sql, type Sql } from '../../db/sql';
import { windowOf } from '../../db/window';
import type { ListWindow, WindowPage } from '../../core/list-window';
import type { ReferenceService } from '../reference';
import { Account } from './accounts.entity';
import { AccountType } from '../../core/account-type';
import { accountsByIds } from './accounts.sql';
import type { AccountOpening, DirectSales } from './accounts.port';
import {
  accountId,
  createAccountInput,
  listAccountsInput,
  updateAccountInput,
  type ContactsInput,
  type CreateAccountInput,
  type ListAccountsInput,
  type UpdateAccountInput,
} from './accounts.input';

/** A directory's size as asked (GraphQL bounds it); REST asks for no bound and lists it whole, as the contract does. */
const boundOf = (limit: number | undefined) => (limit === undefined ? undefined : listBound(limit, 'limit'));

const TYPE_OF = { user: AccountType.User, admin: AccountType.Admin, broker: AccountType.Broker } as const;

const LISTED_TYPES = { platform: AccountType.Platform, ...TYPE_OF } as const;
const PROFILE = ['firstName', 'lastName', 'avatarLink', 'country', 'city', 'region', 'address', 'company', 'currency', 'locale'] as const;
const likeLiteral = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const BY_NAME = [{ lastName: QueryOrder.ASC_NULLS_LAST }, { firstName: QueryOrder.ASC_NULLS_LAST }, { id: QueryOrder.ASC }];

/** An account as the caller may see it: `full` is its whole record, else its public view. */
export interface AccountView {
  account: Account;
  full: boolean;
}

export class AccountsService {
  private readonly createSchema;
  private readonly updateSchema;

  constructor(
    reference: ReferenceService,
    private readonly opening: AccountOpening,
    private readonly directSales: DirectSales,
  ) {
    this.createSchema = createAccountInput(reference);
    this.updateSchema = updateAccountInput(reference);
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
  async create(ctx: RequestContext, input: Untrusted<CreateAccountInput>): Promise<Account> {
    if (!ctx.caller && !ctx.provenKey) throw unauthenticated('unauthenticated', 'the request must be signed');
    // A malformed key is the one fault reported: the rest of the input is not looked at.
    if (!accountId.safeParse(input.id).success) throw invalid('invalid_field', 'id must be an account id (G…)', { field: 'id' });
    const attrs = validateInput(this.createSchema, input);

    const platform = await ctx.em.findOne(Account, { id: attrs.platformId, accountType: AccountType.Platform });
    if (!platform) throw invalid('platform_not_found', 'platformId names no platform', { field: 'platformId' });
    if (!registersItself(ctx, attrs) && !isStaffOf(ctx.caller, platform.id)) {
      throw forbidden('not_allowed', `the signing account may not create ${attrs.accountType} accounts on this platform`);
    }

    const passwordHash = await hashPassword(attrs.password);
    return uniquely(
      () =>
        inTransaction(ctx, async (em) => {
        if (await em.count(Account, { id: attrs.id })) throw conflict('account_exists', 'an account with this id exists', { field: 'id' });
        await this.assertEmailFree(em, platform.id, attrs.email);
        const account = em.create(Account, {
          id: attrs.id,
          accountType: TYPE_OF[attrs.accountType],
          platformId: platform.id,
          firstName: attrs.firstName,
          lastName: attrs.lastName,
          email: attrs.email,
          phoneNumber: attrs.phoneNumber ?? null,
          brokerCities: attrs.brokerCities ?? [],
          socialTokenA: attrs.socialTokenA ?? null,
          socialTokenB: attrs.socialTokenB ?? null,
          avatarLink: attrs.avatarLink ?? null,
          country: attrs.country ?? null,
          countryId: attrs.countryId ?? null,
          cityId: attrs.cityId ?? null,
          city: attrs.city ?? null,
          region: attrs.region ?? null,
          address: attrs.address ?? null,
          company: attrs.company ?? null,
          currency: attrs.currency ?? null,
          locale: attrs.locale ?? null,
        });
        await em.flush();
        await this.opening.opened(em, account, passwordHash);
        return account;
      }),
      () => conflict('account_exists', 'the account id or email is taken'),
    );
  }

  private async assertEmailFree(em: EntityManager, platformId: string, email: string): Promise<void> {
    const taken = await rowsOf(em, sql`select 1 from accounts where platform_id = ${platformId} and lower(email) = lower(${email}) limit 1`);
    if (taken.length) throw conflict('email_taken', 'this email is used by another account of the platform', { field: 'email' });
  }

  /** GET /accounts/{id}: the full record for the account and its platform's staff, else the public view. */
  async get(ctx: RequestContext, id: string): Promise<AccountView> {
    const account = await ctx.em.findOne(Account, { id, accountType: { $ne: AccountType.Master } });
    if (!account) throw notFound('account_not_found', 'no account with this id');
    return { account, full: this.seesFull(ctx, account) };
  }

  /** Whether the caller sees the account's full record (else its public view). */
  seesFull(ctx: RequestContext, account: Account): boolean {
    return seesFullAccount(ctx.caller, account);
  }

  /** An account read elsewhere, in the view the caller may see. */
  shown(ctx: RequestContext, account: Account): AccountView {
    return { account, full: this.seesFull(ctx, account) };
  }

  /** Accounts by id (a GraphQL request's batch), each in the view the caller may see; absent ids are left out. */
  async shownByIds(ctx: RequestContext, ids: readonly string[]): Promise<AccountView[]> {
    return (await accountsByIds(ctx.em, ids)).map((account) => this.shown(ctx, account));
  }

  /** PATCH /accounts/{id}: the account itself or staff of its platform. */
  async update(ctx: RequestContext, input: Untrusted<UpdateAccountInput>): Promise<Account> {
    const caller = requireCaller(ctx);
    const { id } = validateInput(this.updateSchema.pick({ id: true }), { id: input.id });
    return inTransaction(ctx, async (em) => {
      const account = await em.findOne(Account, { id, accountType: { $ne: AccountType.Master } });
      if (!account) throw notFound('account_not_found', 'no account with this id');
      if (!seesFullAccount(caller, account)) {
        throw forbidden('not_allowed', 'the signing account may not update this account');
      }
      const attrs = validateInput(this.updateSchema, input);
      for (const key of PROFILE) {
        const value = attrs[key];
        if (value !== undefined) account[key] = value;
      }
      return account;
    });
  }

  /** GraphQL `accounts`: staff list the accounts of their platforms (one of them with `platform_id`). */
  async list(ctx: RequestContext, input: Untrusted<ListAccountsInput>): Promise<Account[]> {
    const listed = this.listed(ctx, input);
    const q = validateInput(listAccountsInput, input);
    return ctx.em.find(
      Account,
      { platformId: { $in: listed.platforms }, accountType: listed.type ?? { $ne: AccountType.Master } },
      { orderBy: [{ createdAt: QueryOrder.ASC }, { id: QueryOrder.ASC }], limit: q.limit ?? 15, offset: q.offset ?? 0 },
    );
  }

  /** `accountsConnection`: the accounts `list` finds, oldest first, one window paged in the database. */
  async window(ctx: RequestContext, input: Untrusted<Omit<ListAccountsInput, 'limit' | 'offset'>>, window: ListWindow): Promise<WindowPage<Account>> {
    listBound(window.size, window.fromEnd ? 'last' : 'first');
    const { platforms, type } = this.listed(ctx, input);
    const page = await windowOf<Record<string, unknown>>(
      ctx.em,
      {
        columns: sql`a.*`,
        from: sql`accounts a`,
        where: sql`a.platform_id in (${sql.list(platforms)}) and ${type === undefined ? sql`a.account_type <> ${AccountType.Master}` : sql`a.account_type = ${type}`}`,
        order: { key: sql`a.created_at`, id: sql`a.id`, ascending: true, textId: true },
      },
      window,
    );
    return { ...page, items: page.items.map((row) => ctx.em.map(Account, row)) };
  }

  /** The platforms whose accounts the caller (staff only) lists, and the type asked for. */
  private listed(ctx: RequestContext, input: Untrusted<ListAccountsInput>): { platforms: string[]; type?: AccountType } {
    const platforms = staffPlatforms(requireCaller(ctx));
    if (!platforms.length) throw forbidden('not_allowed', 'only platform staff may list accounts');
    const q = validateInput(listAccountsInput.pick({ platformId: true, accountType: true }), input);
    if (q.platformId !== undefined && !platforms.includes(q.platformId)) {
      throw forbidden('not_allowed', 'the caller is not staff of this platform');
    }
    return { platforms: q.platformId !== undefined ? [q.platformId] : platforms, type: q.accountType ? LISTED_TYPES[q.accountType] : undefined };
  }

  /**
   * GET /brokers (public), three cases: for a direct sale organised by a
   * user of the platform, that organizer's contacts; else, with a region, the brokers and admins
   * of the platform in that region (case-insensitive); else every broker of the platform.
   */
  async brokers(ctx: RequestContext, filter: ContactsInput): Promise<Account[]> {
    const limit = boundOf(filter.limit);
    const found = await this.brokersFound(ctx, filter);
    if (found.organizer) return [found.organizer];
    const { platformId, region } = found;
    return ctx.em.find(
      Account,
      region
        ? { platformId, accountType: { $in: [AccountType.Broker, AccountType.Admin] }, region: { $ilike: likeLiteral(region) } }
        : { platformId, accountType: AccountType.Broker },
      { orderBy: BY_NAME, limit },
    );
  }

  /** `brokersConnection`: the contacts `brokers` finds, by name, one window paged in the database. */
  async brokersWindow(ctx: RequestContext, filter: Omit<ContactsInput, 'limit'>, window: ListWindow): Promise<WindowPage<Account>> {
    const found = await this.brokersFound(ctx, filter);
    const { platformId, region } = found;
    const where = found.organizer
      ? sql`a.id = ${found.organizer.id}`
      : region
        ? sql`a.platform_id = ${platformId} and a.account_type in (${sql.list([AccountType.Broker, AccountType.Admin])}) and a.region ilike ${likeLiteral(region)}`
        : sql`a.platform_id = ${platformId} and a.account_type = ${AccountType.Broker}`;
    return this.byName(ctx, where, window);
  }

  /** Whom `brokers` lists: a direct sale's organizer, else the platform's contacts in the region, if one is given. */
  private async brokersFound(ctx: RequestContext, filter: Omit<ContactsInput, 'limit'>): Promise<{ platformId: string; region?: string; organizer?: Account }> {
    const platformId = this.directoryPlatform(filter.platformId);
    const region = filter.region?.trim();
    if (filter.region !== undefined && filter.region !== null && (!region || region.length > 30)) {
      throw invalid('invalid_parameter', 'region must be 1 to 30 characters', { field: 'region' });
    }
    if (filter.lotId) {
      const organizerId = await this.directSales.organizerOf(ctx.em, filter.lotId, { field: 'lotId' });
      const organizer = organizerId ? await ctx.em.findOne(Account, { id: organizerId }) : null;
      if (organizer?.accountType === AccountType.User && organizer.platformId === platformId) return { platformId, organizer };
    }
    return { platformId, region };
  }

  /** GET /admins (public): the admins hosted by the platform. */
  async admins(ctx: RequestContext, filter: Pick<ContactsInput, 'platformId' | 'limit'>): Promise<Account[]> {
    const platformId = this.directoryPlatform(filter.platformId);
    return ctx.em.find(Account, { platformId, accountType: AccountType.Admin }, { orderBy: BY_NAME, limit: boundOf(filter.limit) });
  }

  /** `adminsConnection`: the admins `admins` lists, by name, one window paged in the database. */
  async adminsWindow(ctx: RequestContext, filter: Pick<ContactsInput, 'platformId'>, window: ListWindow): Promise<WindowPage<Account>> {
    const platformId = this.directoryPlatform(filter.platformId);
    return this.byName(ctx, sql`a.platform_id = ${platformId} and a.account_type = ${AccountType.Admin}`, window);
  }

  /** A window of the accounts `where` finds, in the directories' order (`BY_NAME`: last name, first name, nulls last, then id). */
  private async byName(ctx: RequestContext, where: Sql, window: ListWindow): Promise<WindowPage<Account>> {
    listBound(window.size, window.fromEnd ? 'last' : 'first');
    const page = await windowOf<Record<string, unknown>>(
      ctx.em,
      { columns: sql`a.*`, from: sql`accounts a`, where, order: { key: { textKeys: [sql`a.last_name`, sql`a.first_name`] }, id: sql`a.id`, textId: true } },
      window,
    );
    return { ...page, items: page.items.map((row) => ctx.em.map(Account, row)) };
  }

  private directoryPlatform(platformId: string): string {
    if (!accountId.safeParse(platformId).success) throw invalid('invalid_parameter', 'platformId must be an account id (G…)', { field: 'platformId' });
    return platformId;
  }
}
