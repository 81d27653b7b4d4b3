import { resource, type Resource } from '../../rest/document';
import type { Account } from './accounts.entity';
import type { AccountView } from './accounts.service';
import { fullFields, publicFields } from './accounts.view';

/** The reduced view of an account for callers who are neither the account nor its platform's staff. */
export function publicAccountAttributes(a: Account) {
  const f = publicFields(a);
  return {
    account_type: f.accountType,
    account_type_str: f.accountTypeStr,
    platform_id: f.platformId,
    first_name: f.firstName,
    last_name: f.lastName,
    avatar_link: f.avatarLink,
    company: f.company,
  };
}

export function fullAccountAttributes(a: Account) {
  const f = fullFields(a);
  return {
    ...publicAccountAttributes(a),
    email: f.email,
    email_verified: f.emailVerified,
    phone_number: f.phoneNumber,
    phone_verified: f.phoneVerified,
    country: f.country,
    country_id: f.countryId,
    city_id: f.cityId,
    city: f.city,
    region: f.region,
    address: f.address,
    currency: f.currency,
    locale: f.locale,
    details: null,
    flags: f.flags,
    ...('brokerCities' in f ? { broker_cities: f.brokerCities, social_token_a: f.socialTokenA, social_token_b: f.socialTokenB } : {}),
    ...('trustingPlatforms' in f ? { trusting_platforms: f.trustingPlatforms } : {}),
    created_at: f.createdAt,
    updated_at: f.updatedAt,
  };
}

export const presentAccount = ({ account, full }: AccountView): Resource =>
  resource('accounts', account.id, full ? fullAccountAttributes(account) : publicAccountAttributes(account));
