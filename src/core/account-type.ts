// The kinds of account and an account's standing: every area's rules read them off the caller.

/** Account type codes, as the wire numbers them. */
export enum AccountType {
  Master = 1,
  Platform = 2,
  User = 4,
  Admin = 5,
  Broker = 6,
}

export const ACCOUNT_TYPE_NAMES: Record<AccountType, string> = {
  [AccountType.Master]: 'master',
  [AccountType.Platform]: 'platform',
  [AccountType.User]: 'user',
  [AccountType.Admin]: 'admin',
  [AccountType.Broker]: 'broker',
};

/** A blacklisted account's standing. */
export type BlacklistState = 'stopped' | 'paused';
