import type { AccountType } from './account-type';

/** An `accounts` row as a statement outside the ORM answers it (the kernel's staff statement, an area's look-ups). */
export interface AccountColumns {
  id: string;
  platform_id: string | null;
  account_type: AccountType;
  email: string | null;
}
