import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery, timestamp } from '../../db/raw';
import { sql } from '../../db/sql';
import type { Account, AccountType } from './accounts.entity';

/**
 * Accounts by id, read through the driver: read-only rows shown beside a page of lots (organizers,
 * platforms, callback requesters), typed as the ORM would map them but never managed by it. The
 * ORM's query building and hydration of ten accounts cost more than the rest of the page did.
 */
export async function accountsByIds(em: EntityManager, ids: readonly string[]): Promise<Account[]> {
  const [{ rows }] = await rawQuery(
    em,
    sql.render(sql`select id, account_type, platform_id, first_name, last_name, email, email_verified, phone_number, phone_verified, avatar_link,
                          country, country_id, city_id, city, region, address, company, currency, locale, broker_cities, social_token_a,
                          social_token_b, trusting_platforms, flags, created_at, updated_at
                     from accounts where id in (select unnest(${sql.array(ids, 'text')}))`),
  );
  return rows.map((r) => ({
    id: r.id as string,
    accountType: r.account_type as AccountType,
    platformId: r.platform_id as string | null,
    firstName: r.first_name as string | null,
    lastName: r.last_name as string | null,
    email: r.email as string | null,
    emailVerified: r.email_verified as boolean,
    phoneNumber: r.phone_number as string | null,
    phoneVerified: r.phone_verified as boolean,
    avatarLink: r.avatar_link as string | null,
    country: r.country as string | null,
    countryId: r.country_id as number | null,
    cityId: r.city_id as number | null,
    city: r.city as string | null,
    region: r.region as string | null,
    address: r.address as string | null,
    company: r.company as string | null,
    currency: r.currency as string | null,
    locale: r.locale as string | null,
    brokerCities: r.broker_cities as string[],
    socialTokenA: r.social_token_a as string | null,
    socialTokenB: r.social_token_b as string | null,
    trustingPlatforms: r.trusting_platforms as string[],
    flags: r.flags as number,
    createdAt: timestamp(r.created_at) as Date,
    updatedAt: timestamp(r.updated_at) as Date,
  }));
}
