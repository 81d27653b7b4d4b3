import { rfc3339 } from '../../core/time';
import { resource, type Resource } from '../../rest/document';
import { Account } from './accounts.entity';
import { ACCOUNT_TYPE_NAMES, AccountType } from '../../core/account-type';
import type { AccountView } from './accounts.service';

/** The reduced view of an account for callers who are neither the account nor its platform's staff. */
export function publicAccountAttributes(a: Account) {
  return {
    account_type: a.accountType,
    account_type_str: ACCOUNT_TYPE_NAMES[a.accountType],
    platform_id: a.platformId,
    first_name: a.firstName,
    last_name: a.lastName,
    avatar_link: a.avatarLink,
    company: a.company,
  };
}

export function fullAccountAttributes(a: Account) {
  return {
    ...publicAccountAttributes(a),
    email: a.email,
    email_verified: a.emailVerified,
    phone_number: a.phoneNumber,
    phone_verified: a.phoneVerified,
    country: a.country,
    country_id: a.countryId,
    city_id: a.cityId,
    city: a.city,
    region: a.region,
    address: a.address,
    currency: a.currency,
    locale: a.locale,
    details: null,
    flags: a.flags,
    ...(a.accountType === AccountType.Broker
      ? { broker_cities: a.brokerCities, social_token_a: a.socialTokenA, social_token_b: a.socialTokenB }
      : {}),
    ...(a.accountType === AccountType.Admin ? { trusting_platforms: a.trustingPlatforms } : {}),
    created_at: rfc3339(a.createdAt),
    updated_at: rfc3339(a.updatedAt),
  };
}

export const presentAccount = ({ account, full }: AccountView): Resource =>
  resource('accounts', account.id, full ? fullAccountAttributes(account) : publicAccountAttributes(account));
