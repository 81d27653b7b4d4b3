import { StrKey } from '@stellar/stellar-sdk';
import { z } from 'zod';
import { httpLink } from '../../core/links';
import { CURRENCIES } from '../../core/money';
import type { ReferenceService } from '../reference';

export const LOCALES = ['en', 'gl', 'uk', 'ru'] as const;

export const accountId = z.string().refine((v) => StrKey.isValidEd25519PublicKey(v), 'must be an account id (G…)');
export const password = z.string().min(8, 'must be at least 8 characters').max(64, 'must be at most 64 characters');
const upTo = (n: number) => z.string().trim().min(1, 'must not be empty').max(n, `must be at most ${n} characters`);
const phone = z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be in international format: + then 7 to 15 digits');

/** The fields an account may change, with the limits of docs/configuration.md; shared by create and update. */
export function profileFields(reference: ReferenceService) {
  return {
    firstName: upTo(30),
    lastName: upTo(30),
    avatarLink: httpLink(),
    country: z.string().refine((c) => reference.isCountryCode(c), 'must be an ISO 3166-1 alpha-3 code'),
    city: upTo(30),
    region: upTo(30),
    address: upTo(100),
    company: upTo(30),
    currency: z.enum(CURRENCIES),
    locale: z.enum(LOCALES),
  };
}

/** The most cities a broker names. */
export const MAX_BROKER_CITIES = 100;

/** POST /accounts: `id` is the new account's key. */
export function createAccountInput(reference: ReferenceService) {
  const profile = profileFields(reference);
  return z
    .object({
      id: accountId,
      accountType: z.enum(['user', 'admin', 'broker']),
      platformId: accountId,
      firstName: profile.firstName,
      lastName: profile.lastName,
      email: z.string().trim().max(254).email('must be an email address'),
      password,
      brokerCities: z.array(z.string().min(1).max(30)).min(1, 'must name at least one city').max(MAX_BROKER_CITIES).optional(),
      phoneNumber: phone.optional(),
      socialTokenA: z.string().max(500).optional(),
      socialTokenB: z.string().max(500).optional(),
      avatarLink: profile.avatarLink.optional(),
      country: profile.country.optional(),
      countryId: z.number().int().positive().optional(),
      cityId: z.number().int().positive().optional(),
      city: profile.city.optional(),
      region: profile.region.optional(),
      address: profile.address.optional(),
      company: profile.company.optional(),
      currency: profile.currency.optional(),
      locale: profile.locale.optional(),
    })
    .superRefine((v, ctx) => {
      if (v.accountType === 'broker' && !v.brokerCities) {
        ctx.addIssue({ code: 'custom', path: ['brokerCities'], message: 'is required for brokers' });
      }
    });
}
export type CreateAccountInput = z.input<ReturnType<typeof createAccountInput>>;

/** PATCH /accounts/{id}: absent fields stay as they are. */
export function updateAccountInput(reference: ReferenceService) {
  return z.object({ id: z.string(), ...z.object(profileFields(reference)).partial().shape });
}
export type UpdateAccountInput = z.input<ReturnType<typeof updateAccountInput>>;

/** GraphQL `accounts`: staff list the accounts of their platforms. */
export const listAccountsInput = z.object({
  platformId: z.string().min(1).optional(),
  accountType: z.enum(['platform', 'user', 'admin', 'broker'], { error: 'must be platform, user, admin or broker' }).optional(),
  limit: z.number().int().min(1, 'must be 1 to 100').max(100, 'must be 1 to 100').optional(),
  offset: z.number().int().min(0, 'must not be negative').optional(),
});
export type ListAccountsInput = z.input<typeof listAccountsInput>;

/** GET /brokers and GET /admins: the contacts of a platform. */
export interface ContactsInput {
  platformId: string;
  region?: string | null;
  lotId?: string | null;
  /** The first `limit` contacts by name (1 to 100); none given: all of them, as REST lists them. */
  limit?: number;
}
