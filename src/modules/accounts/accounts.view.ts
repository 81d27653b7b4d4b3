import { rfc3339 } from '../../core/time';
import type { Account } from './accounts.entity';
import { ACCOUNT_TYPE_NAMES, AccountType } from '../../core/account-type';

// The fields each view of an account shows, once for REST and GraphQL: REST names them in
// snake_case, GraphQL's Account nulls the fields a view leaves out.

/** What anyone sees of an account. */
export const publicFields = (a: Account) => ({
  accountType: a.accountType,
  accountTypeStr: ACCOUNT_TYPE_NAMES[a.accountType],
  platformId: a.platformId,
  firstName: a.firstName,
  lastName: a.lastName,
  avatarLink: a.avatarLink,
  company: a.company,
});

/** A broker's own fields: none for anyone else. */
const brokerFields = (a: Account) =>
  a.accountType === AccountType.Broker ? { brokerCities: a.brokerCities, socialTokenA: a.socialTokenA, socialTokenB: a.socialTokenB } : {};

/** The broker and admin directories: how to reach the account, never credentials. */
export const contactFields = (a: Account) => ({
  ...publicFields(a),
  email: a.email,
  phoneNumber: a.phoneNumber,
  city: a.city,
  region: a.region,
  ...brokerFields(a),
});

/** The full record, for the account itself and staff of its platform (core/policies.ts `seesFullAccount`). */
export const fullFields = (a: Account) => ({
  ...publicFields(a),
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
  ...brokerFields(a),
  ...(a.accountType === AccountType.Admin ? { trustingPlatforms: a.trustingPlatforms } : {}),
  createdAt: rfc3339(a.createdAt),
  updatedAt: rfc3339(a.updatedAt),
});

/** The answer of a verification over GraphQL, whose token authenticates: who it is, and its own settings and flags. */
export const verifiedFields = (a: Account) => ({
  ...publicFields(a),
  currency: a.currency,
  email: a.email,
  emailVerified: a.emailVerified,
  flags: a.flags,
  locale: a.locale,
  phoneNumber: a.phoneNumber,
  phoneVerified: a.phoneVerified,
});
