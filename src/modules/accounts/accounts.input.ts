import { StrKey } from '@stellar/stellar-sdk';
import { z } from 'zod';
import type { ReferenceService } from '../reference/reference.service';

export const CURRENCIES = ['USD', 'EUR', 'GEL', 'UAH', 'BTC'] as const;
export const LOCALES = ['en', 'gl', 'uk', 'ru'] as const;

export const accountId = z.string().refine((v) => StrKey.isValidEd25519PublicKey(v), 'must be an account id (G…)');
export const password = z.string().min(8, 'must be at least 8 characters').max(64, 'must be at most 64 characters');
const upTo = (n: number) => z.string().trim().min(1, 'must not be empty').max(n, `must be at most ${n} characters`);
const link = z.string().url('must be a link').max(2048);
const phone = z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be in international format: + then 7 to 15 digits');

/** The attributes an account may change, with the limits of INTERFACE.md §8; shared by create and update. */
export function profileAttributes(reference: ReferenceService) {
  return {
    first_name: upTo(30),
    last_name: upTo(30),
    avatar_link: link,
    country: z.string().refine((c) => reference.isCountryCode(c), 'must be an ISO 3166-1 alpha-3 code'),
    city: upTo(30),
    region: upTo(30),
    address: upTo(100),
    company: upTo(30),
    currency: z.enum(CURRENCIES),
    locale: z.enum(LOCALES),
  };
}

export function createAccountSchema(reference: ReferenceService) {
  const profile = profileAttributes(reference);
  return z
    .object({
      account_type: z.enum(['user', 'admin', 'broker']),
      platform_id: accountId,
      first_name: profile.first_name,
      last_name: profile.last_name,
      email: z.string().trim().max(254).email('must be an email address'),
      password,
      broker_cities: z.array(z.string().min(1).max(30)).min(1, 'must name at least one city').max(100).optional(),
      phone_number: phone.optional(),
      social_token_a: z.string().max(500).optional(),
      social_token_b: z.string().max(500).optional(),
      avatar_link: profile.avatar_link.optional(),
      country: profile.country.optional(),
      country_id: z.number().int().positive().optional(),
      city_id: z.number().int().positive().optional(),
      city: profile.city.optional(),
      region: profile.region.optional(),
      address: profile.address.optional(),
      company: profile.company.optional(),
      currency: profile.currency.optional(),
      locale: profile.locale.optional(),
    })
    .superRefine((v, ctx) => {
      if (v.account_type === 'broker' && !v.broker_cities) {
        ctx.addIssue({ code: 'custom', path: ['broker_cities'], message: 'is required for brokers' });
      }
    });
}
export type CreateAccountAttributes = z.infer<ReturnType<typeof createAccountSchema>>;

export function updateAccountSchema(reference: ReferenceService) {
  return z.object(profileAttributes(reference)).partial();
}
export type UpdateAccountAttributes = z.infer<ReturnType<typeof updateAccountSchema>>;
