import { z } from 'zod';
import { accountId, profileFields } from '../accounts';
import type { ReferenceService } from '../reference';

/** POST /platforms: `id` is the platform's key, `seed` the master key or one of its signers. */
export function createPlatformInput(reference: ReferenceService) {
  const profile = profileFields(reference);
  return z.object({
    id: accountId,
    seed: z.string().min(1),
    firstName: profile.firstName.optional(),
    lastName: profile.lastName.optional(),
    email: z.string().trim().max(254).email('must be an email address').optional(),
    phoneNumber: z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be in international format').optional(),
    avatarLink: profile.avatarLink.optional(),
    country: profile.country.optional(),
    city: profile.city.optional(),
    address: profile.address.optional(),
    company: profile.company.optional(),
  });
}
export type CreatePlatformInput = z.input<ReturnType<typeof createPlatformInput>>;

/** POST /master/signers. */
export interface MasterSignerInput {
  publicKey: string;
}
