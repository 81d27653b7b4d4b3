import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { rfc3339 } from '../../core/time';
import type { GraphQLContext } from '../../graphql/context';
import { Account } from './accounts.entity';
import { ACCOUNT_TYPE_NAMES, AccountType } from '../../core/account-type';

@ObjectType('Account', {
  description:
    'An account. The full record is shown to the account itself and to staff of its platform; others see the public view, where the other fields are null.',
})
export class AccountGql {
  @Field(() => String) id!: string;
  @Field(() => Int, { description: '1 master, 2 platform, 4 user, 5 admin, 6 broker' }) accountType!: number;
  @Field(() => String) accountTypeStr!: string;
  @Field(() => String, { nullable: true }) platformId!: string | null;
  @Field(() => String, { nullable: true }) firstName!: string | null;
  @Field(() => String, { nullable: true }) lastName!: string | null;
  @Field(() => String, { nullable: true }) avatarLink!: string | null;
  @Field(() => String, { nullable: true }) company!: string | null;
  @Field(() => String, { nullable: true }) email!: string | null;
  @Field(() => Boolean, { nullable: true }) emailVerified!: boolean | null;
  @Field(() => String, { nullable: true }) phoneNumber!: string | null;
  @Field(() => Boolean, { nullable: true }) phoneVerified!: boolean | null;
  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-3' }) country!: string | null;
  @Field(() => Int, { nullable: true }) countryId!: number | null;
  @Field(() => Int, { nullable: true }) cityId!: number | null;
  @Field(() => String, { nullable: true }) city!: string | null;
  @Field(() => String, { nullable: true }) region!: string | null;
  @Field(() => String, { nullable: true }) address!: string | null;
  @Field(() => String, { nullable: true }) currency!: string | null;
  @Field(() => String, { nullable: true }) locale!: string | null;
  @Field(() => Int, { nullable: true }) flags!: number | null;
  @Field(() => [String], { nullable: true, description: 'Brokers only' }) brokerCities!: string[] | null;
  @Field(() => String, { nullable: true, description: 'Brokers only' }) socialTokenA!: string | null;
  @Field(() => String, { nullable: true, description: 'Brokers only' }) socialTokenB!: string | null;
  @Field(() => [String], { nullable: true, description: 'Admins only' }) trustingPlatforms!: string[] | null;
  @Field(() => String, { nullable: true, description: 'RFC 3339' }) createdAt!: string | null;
  @Field(() => String, { nullable: true, description: 'RFC 3339' }) updatedAt!: string | null;
}

/**
 * Which fields a caller sees, as in REST: `full` (the account itself, staff of its platform),
 * `public` (everyone else), `contact` (GET /brokers and /admins), `verified` (the answer of a
 * verification, whose token authenticates).
 */
export type AccountGqlView = 'full' | 'public' | 'contact' | 'verified';

const PUBLIC = ['id', 'accountType', 'accountTypeStr', 'platformId', 'firstName', 'lastName', 'avatarLink', 'company'] as const;
const VISIBLE: Record<Exclude<AccountGqlView, 'full'>, ReadonlySet<keyof AccountGql>> = {
  public: new Set(PUBLIC),
  contact: new Set([...PUBLIC, 'email', 'phoneNumber', 'city', 'region', 'brokerCities', 'socialTokenA', 'socialTokenB']),
  verified: new Set([...PUBLIC, 'currency', 'email', 'emailVerified', 'flags', 'locale', 'phoneNumber', 'phoneVerified']),
};

/** An account beside another resource (a lot's organizer, a message's sender), as its caller may see it; one query for the request's accounts. */
export async function shownAccount({ ctx, services, loaders }: GraphQLContext, id: string): Promise<AccountGql> {
  const account = (await loaders.account.load(id)) as Account;
  return accountGql(account, services.accounts.seesFull(ctx, account) ? 'full' : 'public');
}

export function accountGql(a: Account, view: AccountGqlView): AccountGql {
  const broker = a.accountType === AccountType.Broker;
  const full: AccountGql = {
    id: a.id,
    accountType: a.accountType,
    accountTypeStr: ACCOUNT_TYPE_NAMES[a.accountType],
    platformId: a.platformId,
    firstName: a.firstName,
    lastName: a.lastName,
    avatarLink: a.avatarLink,
    company: a.company,
    email: a.email,
    emailVerified: a.emailVerified,
    phoneNumber: a.phoneNumber,
    phoneVerified: a.phoneVerified,
    country: a.country,
    countryId: a.countryId,
    cityId: a.cityId,
    city: a.city,
    region: a.region,
    address: a.address,
    currency: a.currency,
    locale: a.locale,
    flags: a.flags,
    brokerCities: broker ? a.brokerCities : null,
    socialTokenA: broker ? a.socialTokenA : null,
    socialTokenB: broker ? a.socialTokenB : null,
    trustingPlatforms: a.accountType === AccountType.Admin ? a.trustingPlatforms : null,
    createdAt: rfc3339(a.createdAt),
    updatedAt: rfc3339(a.updatedAt),
  };
  if (view === 'full') return full;
  const visible = VISIBLE[view];
  const out = { ...full } as Record<keyof AccountGql, unknown>;
  for (const key of Object.keys(out) as (keyof AccountGql)[]) if (!visible.has(key)) out[key] = null;
  return out as AccountGql;
}

@InputType('CreateAccountInput', { description: 'The attributes of POST /accounts, in camelCase' })
export class CreateAccountInput {
  @Field(() => String, { description: 'Account id (G…) of the new account' }) id!: string;
  @Field(() => String, { description: 'user, admin or broker' }) accountType!: string;
  @Field(() => String) platformId!: string;
  @Field(() => String) firstName!: string;
  @Field(() => String) lastName!: string;
  @Field(() => String) email!: string;
  @Field(() => String, { description: '8 to 64 characters; creates the credentials' }) password!: string;
  @Field(() => [String], { nullable: true, description: 'Required for brokers' }) brokerCities?: string[] | null;
  @Field(() => String, { nullable: true }) phoneNumber?: string | null;
  @Field(() => String, { nullable: true }) socialTokenA?: string | null;
  @Field(() => String, { nullable: true }) socialTokenB?: string | null;
  @Field(() => String, { nullable: true }) avatarLink?: string | null;
  @Field(() => String, { nullable: true }) country?: string | null;
  @Field(() => Int, { nullable: true }) countryId?: number | null;
  @Field(() => Int, { nullable: true }) cityId?: number | null;
  @Field(() => String, { nullable: true }) city?: string | null;
  @Field(() => String, { nullable: true }) region?: string | null;
  @Field(() => String, { nullable: true }) address?: string | null;
  @Field(() => String, { nullable: true }) company?: string | null;
  @Field(() => String, { nullable: true }) currency?: string | null;
  @Field(() => String, { nullable: true }) locale?: string | null;
}

@InputType('UpdateAccountInput', { description: 'The attributes of PATCH /accounts/{id}, in camelCase; absent or null leaves a field as it is' })
export class UpdateAccountInput {
  @Field(() => String, { nullable: true }) firstName?: string | null;
  @Field(() => String, { nullable: true }) lastName?: string | null;
  @Field(() => String, { nullable: true }) avatarLink?: string | null;
  @Field(() => String, { nullable: true }) country?: string | null;
  @Field(() => String, { nullable: true }) city?: string | null;
  @Field(() => String, { nullable: true }) region?: string | null;
  @Field(() => String, { nullable: true }) address?: string | null;
  @Field(() => String, { nullable: true }) company?: string | null;
  @Field(() => String, { nullable: true }) currency?: string | null;
  @Field(() => String, { nullable: true }) locale?: string | null;
}

/** camelCase input fields → the snake_case attributes the services validate; null means absent. */
export function snakeAttributes(input: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === null || value === undefined) continue;
    out[key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = value;
  }
  return out;
}
