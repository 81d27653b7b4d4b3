import { resource, type Resource } from '../../rest/document';
import type { Account } from './accounts.entity';
import { ACCOUNT_TYPE_NAMES, AccountType } from '../../core/account-type';

/** The contact view of GET /brokers and GET /admins: how to reach the account, never credentials. */
export function presentContact(a: Account): Resource {
  return resource('accounts', a.id, {
    account_type: a.accountType,
    account_type_str: ACCOUNT_TYPE_NAMES[a.accountType],
    platform_id: a.platformId,
    first_name: a.firstName,
    last_name: a.lastName,
    email: a.email,
    phone_number: a.phoneNumber,
    avatar_link: a.avatarLink,
    company: a.company,
    city: a.city,
    region: a.region,
    ...(a.accountType === AccountType.Broker
      ? { broker_cities: a.brokerCities, social_token_a: a.socialTokenA, social_token_b: a.socialTokenB }
      : {}),
  });
}
