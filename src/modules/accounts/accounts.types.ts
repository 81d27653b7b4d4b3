import { Extensions, Field, InputType, Int, ObjectType } from 'type-graphql';
import type { GraphQLContext } from '../../graphql/context';
import { timeOf } from '../../graphql/date-scalar';
import { listItems } from '../../graphql/list-items';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';
import type { Account } from './accounts.entity';
import { MAX_BROKER_CITIES } from './accounts.input';
import type { AccountView } from './accounts.service';
import { contactFields, fullFields, publicFields, verifiedFields } from './accounts.view';
import { NodeGql } from '../../graphql/types/node';

@ObjectType('Account', {
  implements: NodeGql,
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
  @Extensions(listItems(MAX_BROKER_CITIES))
  @Field(() => [String], { nullable: true, description: 'Brokers only; at most 100' }) brokerCities!: string[] | null;
  @Field(() => String, { nullable: true, description: 'Brokers only' }) socialTokenA!: string | null;
  @Field(() => String, { nullable: true, description: 'Brokers only' }) socialTokenB!: string | null;
  @Field(() => [String], { nullable: true, description: 'Admins only: the first `limit` platforms it is staff of besides its own (by default and at most 100)', deprecationReason: 'Use `trustingPlatformsConnection`' })
  trustingPlatforms!: string[] | null;
  @Field(() => String, { nullable: true, description: 'RFC 3339', deprecationReason: 'Use `createdTime`' }) createdAt!: string | null;
  @Field(() => Date, { nullable: true, description: 'The time of `createdAt`' }) createdTime!: Date | null;
  @Field(() => String, { nullable: true, description: 'RFC 3339', deprecationReason: 'Use `updatedTime`' }) updatedAt!: string | null;
  @Field(() => Date, { nullable: true, description: 'The time of `updatedAt`' }) updatedTime!: Date | null;
}

/**
 * Which fields a caller sees, as in REST: `full` (the account itself, staff of its platform),
 * `public` (everyone else), `contact` (GET /brokers and /admins), `verified` (the answer of a
 * verification, whose token authenticates).
 */
export type AccountGqlView = 'full' | 'public' | 'contact' | 'verified';

const FIELDS_OF = { full: fullFields, public: publicFields, contact: contactFields, verified: verifiedFields } as const;

/** Null for each field a view may leave out (every view shows the public ones). */
const NONE: Omit<AccountGql, 'id' | 'accountType' | 'accountTypeStr'> = {
  platformId: null,
  firstName: null,
  lastName: null,
  avatarLink: null,
  company: null,
  email: null,
  emailVerified: null,
  phoneNumber: null,
  phoneVerified: null,
  country: null,
  countryId: null,
  cityId: null,
  city: null,
  region: null,
  address: null,
  currency: null,
  locale: null,
  flags: null,
  brokerCities: null,
  socialTokenA: null,
  socialTokenB: null,
  trustingPlatforms: null,
  createdAt: null,
  updatedAt: null,
  createdTime: null,
  updatedTime: null,
};

/** An account beside another resource (a lot's organizer, a message's sender), as its caller may see it; one query for the request's accounts. */
export async function shownAccount({ loaders }: GraphQLContext, id: string): Promise<AccountGql> {
  const { account, full } = (await loaders.account.load(id)) as AccountView;
  return accountGql(account, full ? 'full' : 'public');
}

export function accountGql(a: Account, view: AccountGqlView): AccountGql {
  const shown = { ...NONE, id: a.id, ...FIELDS_OF[view](a) };
  return { ...shown, createdTime: timeOf(shown.createdAt), updatedTime: timeOf(shown.updatedAt) };
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

@InputType('EditAccountInput', { description: 'The attributes of PATCH /accounts/{id}, in camelCase; absent or null leaves a field as it is' })
export class EditAccountInput extends UpdateAccountInput {
  @Field(() => String) id!: string;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('EditAccountPayload')
export class EditAccountPayloadGql {
  @Field(() => AccountGql, { nullable: true, description: 'The account as it is now' }) account!: AccountGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}
