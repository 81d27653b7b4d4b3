import { resource, type Resource } from '../../rest/document';
import type { Account } from './accounts.entity';
import { publicAccountAttributes } from './accounts.presenter';
import { contactFields } from './accounts.view';

/** The contact view of GET /brokers and GET /admins: how to reach the account, never credentials. */
export function presentContact(a: Account): Resource {
  const f = contactFields(a);
  return resource('accounts', a.id, {
    ...publicAccountAttributes(a),
    email: f.email,
    phone_number: f.phoneNumber,
    city: f.city,
    region: f.region,
    ...('brokerCities' in f ? { broker_cities: f.brokerCities, social_token_a: f.socialTokenA, social_token_b: f.socialTokenB } : {}),
  });
}
