import type { GraphQLResolveInfo } from 'graphql';
import { Arg, Args, Ctx, Extensions, ID, Info, Int, Mutation, Query, Resolver } from 'type-graphql';
import { ConnectionArgs, connectionOfWindow, pageWindow, type ConnectionSource } from '../../graphql/types/connection';
import { AccountConnectionGql } from './accounts.connection.types';
import { MAX_PAGE_SIZE } from '../../core/page';
import { withoutNulls } from '../../core/validate';
import type { GraphQLContext } from '../../graphql/context';
import { SELF_REGISTRATION } from '../../graphql/guards';
import { payloadOf } from '../../graphql/user-errors';
import { asStored } from '../idempotency';
import { registerNode } from '../../graphql/types/node';
import { AccountGql, accountGql, CreateAccountInput, EditAccountInput, EditAccountPayloadGql, UpdateAccountInput } from './accounts.types';
import { runsStatement } from '../../graphql/statement-cost';

type Edited = Omit<EditAccountPayloadGql, 'userErrors'>;

async function accountById(id: string, { ctx, services }: Pick<GraphQLContext, 'ctx' | 'services'>): Promise<AccountGql> {
  const { account, full } = await services.accounts.get(ctx, id);
  return accountGql(account, full ? 'full' : 'public');
}
registerNode('Account', accountById);

@Resolver()
export class AccountsResolver {
  @Extensions(runsStatement())
  @Query(() => AccountGql, { nullable: true, description: "The caller's own account" })
  async me(@Ctx() { ctx, services }: GraphQLContext): Promise<AccountGql> {
    return accountGql(await services.accounts.me(ctx), 'full');
  }

  @Extensions(runsStatement())
  @Query(() => AccountGql, { nullable: true, description: 'An account: the full record for itself and staff of its platform, else the public view' })
  account(@Arg('id', () => String) id: string, @Ctx() context: GraphQLContext): Promise<AccountGql> {
    return accountById(id, context);
  }

  @Extensions(runsStatement())
  @Query(() => [AccountGql], { description: "Accounts of the caller's platforms, oldest first; staff only", deprecationReason: 'Use `accountsConnection`' })
  async accounts(
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('platformId', () => String, { nullable: true, description: 'One of the platforms whose staff the caller is' }) platformId?: string | null,
    @Arg('accountType', () => String, { nullable: true, description: 'platform, user, admin or broker' }) accountType?: string | null,
    @Arg('limit', () => Int, { nullable: true, description: '1 to 100; 15 by default' }) limit?: number | null,
    @Arg('offset', () => Int, { nullable: true }) offset?: number | null,
  ): Promise<AccountGql[]> {
    const list = await services.accounts.list(ctx, withoutNulls({ platformId, accountType, limit, offset }));
    return list.map((a) => accountGql(a, 'full'));
  }

  @Extensions(runsStatement())
  @Query(() => AccountConnectionGql, { description: "Accounts of the caller's platforms, oldest first; staff only" })
  async accountsConnection(
    @Ctx() { ctx, services }: GraphQLContext,
    @Args() page: ConnectionArgs,
    @Info() info: GraphQLResolveInfo,
    @Arg('platformId', () => String, { nullable: true, description: 'One of the platforms whose staff the caller is' }) platformId?: string | null,
    @Arg('accountType', () => String, { nullable: true, description: 'platform, user, admin or broker' }) accountType?: string | null,
  ): Promise<ConnectionSource<AccountGql>> {
    const window = pageWindow(page, 'Query.accountsConnection', info);
    const found = await services.accounts.window(ctx, withoutNulls({ platformId, accountType }), window);
    return connectionOfWindow(window, found, (items) => items.map((a) => accountGql(a, 'full')));
  }

  @Extensions(runsStatement())
  @Query(() => [AccountGql], {
    description: 'Broker contacts: the organizer of a direct sale by a user of the platform; else, with a region, the brokers and admins of that region; else every broker',
    deprecationReason: 'Use `brokersConnection`',
  })
  async brokers(
    @Arg('platformId', () => String) platformId: string,
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('region', () => String, { nullable: true }) region?: string | null,
    @Arg('lotId', () => ID, { nullable: true }) lotId?: string | null,
    @Arg('limit', () => Int, { defaultValue: MAX_PAGE_SIZE, description: '1 to 100; 100 by default' }) limit?: number,
  ): Promise<AccountGql[]> {
    return (await services.accounts.brokers(ctx, { platformId, region, lotId, limit })).map((a) => accountGql(a, 'contact'));
  }

  @Extensions(runsStatement())
  @Query(() => [AccountGql], { description: 'Admin contacts of a platform, the first `limit` by name', deprecationReason: 'Use `adminsConnection`' })
  async admins(
    @Arg('platformId', () => String) platformId: string,
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('limit', () => Int, { defaultValue: MAX_PAGE_SIZE, description: '1 to 100; 100 by default' }) limit?: number,
  ): Promise<AccountGql[]> {
    return (await services.accounts.admins(ctx, { platformId, limit })).map((a) => accountGql(a, 'contact'));
  }

  @Extensions(runsStatement())
  @Query(() => AccountConnectionGql, {
    description: 'Broker contacts by name (last name, first name, then id): the organizer of a direct sale by a user of the platform; else, with a region, the brokers and admins of that region; else every broker',
  })
  async brokersConnection(
    @Arg('platformId', () => String) platformId: string,
    @Ctx() { ctx, services }: GraphQLContext,
    @Args() page: ConnectionArgs,
    @Info() info: GraphQLResolveInfo,
    @Arg('region', () => String, { nullable: true }) region?: string | null,
    @Arg('lotId', () => ID, { nullable: true }) lotId?: string | null,
  ): Promise<ConnectionSource<AccountGql>> {
    // A cursor belongs to the directory it was read from: another platform's, region's or sale's is refused.
    const window = pageWindow(page, `Query.brokersConnection:${JSON.stringify([platformId, region ?? null, lotId ?? null])}`, info);
    const found = await services.accounts.brokersWindow(ctx, { platformId, region, lotId }, window);
    return connectionOfWindow(window, found, (items) => items.map((a) => accountGql(a, 'contact')));
  }

  @Extensions(runsStatement())
  @Query(() => AccountConnectionGql, { description: 'Admin contacts of a platform by name (last name, first name, then id)' })
  async adminsConnection(@Arg('platformId', () => String) platformId: string, @Ctx() { ctx, services }: GraphQLContext, @Args() page: ConnectionArgs, @Info() info: GraphQLResolveInfo): Promise<ConnectionSource<AccountGql>> {
    const window = pageWindow(page, `Query.adminsConnection:${platformId}`, info);
    const found = await services.accounts.adminsWindow(ctx, { platformId }, window);
    return connectionOfWindow(window, found, (items) => items.map((a) => accountGql(a, 'contact')));
  }

  @Extensions(SELF_REGISTRATION)
  @Mutation(() => AccountGql, { description: 'POST /accounts: self-registration of a user (signed by the new key) or creation by platform staff', deprecationReason: 'Use registerAccount' })
  async createAccount(@Arg('input', () => CreateAccountInput) input: CreateAccountInput, @Ctx() { ctx, services }: GraphQLContext): Promise<AccountGql> {
    return accountGql(await services.accounts.create(ctx, withoutNulls(input)), 'full');
  }

  @Mutation(() => AccountGql, { description: 'PATCH /accounts/{id}: the account itself or staff of its platform', deprecationReason: 'Use editAccount' })
  async updateAccount(
    @Arg('id', () => String) id: string,
    @Arg('input', () => UpdateAccountInput) input: UpdateAccountInput,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<AccountGql> {
    return accountGql(await services.accounts.update(ctx, { ...withoutNulls(input), id }), 'full');
  }

  @Mutation(() => AccountGql, { description: 'POST /platforms: the seed (master key or one of its signers) authenticates', deprecationReason: 'Use registerPlatform' })
  async createPlatform(
    @Arg('id', () => String) id: string,
    @Arg('seed', () => String) seed: string,
    @Ctx() { ctx, services }: GraphQLContext,
    @Arg('firstName', () => String, { nullable: true }) firstName?: string | null,
    @Arg('lastName', () => String, { nullable: true }) lastName?: string | null,
    @Arg('email', () => String, { nullable: true }) email?: string | null,
    @Arg('phoneNumber', () => String, { nullable: true }) phoneNumber?: string | null,
    @Arg('avatarLink', () => String, { nullable: true }) avatarLink?: string | null,
    @Arg('country', () => String, { nullable: true }) country?: string | null,
    @Arg('city', () => String, { nullable: true }) city?: string | null,
    @Arg('address', () => String, { nullable: true }) address?: string | null,
    @Arg('company', () => String, { nullable: true }) company?: string | null,
  ): Promise<AccountGql> {
    const input = withoutNulls({ id, seed, firstName, lastName, email, phoneNumber, avatarLink, country, city, address, company });
    return accountGql(await services.platforms.createPlatform(ctx, input), 'full');
  }

  @Mutation(() => AccountGql, { description: 'PATCH /accounts/verification/email', deprecationReason: 'Use confirmEmail' })
  async verifyEmail(
    @Arg('accountId', () => String) accountId: string,
    @Arg('token', () => String) token: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<AccountGql> {
    return accountGql(await services.verification.verify(ctx, 'email', { accountId, token }), 'verified');
  }

  @Mutation(() => AccountGql, { description: 'PATCH /accounts/verification/phone', deprecationReason: 'Use confirmPhone' })
  async verifyPhone(
    @Arg('accountId', () => String) accountId: string,
    @Arg('token', () => String) token: string,
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<AccountGql> {
    return accountGql(await services.verification.verify(ctx, 'phone', { accountId, token }), 'verified');
  }

  @Mutation(() => Boolean, { description: 'GET /accounts/verification/resend: new tokens to email and/or phone', deprecationReason: 'Use sendVerification' })
  async resendVerification(
    @Arg('accountId', () => String) accountId: string,
    @Arg('receivers', () => [String], { description: 'email, phone' }) receivers: string[],
    @Ctx() { ctx, services }: GraphQLContext,
  ): Promise<boolean> {
    // The argument is a set: a channel named twice is sent once.
    await services.verification.resend(ctx, { accountId, receivers: [...new Set(receivers)] });
    return true;
  }

  @Mutation(() => EditAccountPayloadGql, { description: 'Changes an account: the account itself or staff of its platform; a refusal is answered in userErrors' })
  async editAccount(@Arg('input', () => EditAccountInput) input: EditAccountInput, @Ctx() { ctx, services }: GraphQLContext): Promise<EditAccountPayloadGql> {
    const { idempotencyKey, ...change } = input;
    const call = { ...withoutNulls(change), id: change.id };
    return payloadOf<Edited>({ account: null }, () =>
      services.idempotency.once(ctx, { key: idempotencyKey, operation: 'editAccount', input: call }, asStored<Edited>(), async () => ({ account: accountGql(await services.accounts.update(ctx, call), 'full') })),
    );
  }
}
