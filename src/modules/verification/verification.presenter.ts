import { resource } from '../../rest/document';
import type { Account } from '../accounts';

/** The answer of a verification, whose token authenticates: the account's own settings and flags. */
export const presentVerified = (a: Account) =>
  resource('accounts', a.id, {
    account_type: a.accountType,
    currency: a.currency,
    email: a.email,
    email_verified: a.emailVerified,
    flags: a.flags,
    locale: a.locale,
    phone_number: a.phoneNumber,
    phone_verified: a.phoneVerified,
    platform_id: a.platformId,
  });
