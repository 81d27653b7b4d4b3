import type { EntityManager } from '@mikro-orm/postgresql';
import type { Account } from './accounts.entity';

/**
 * What a new account needs of the areas built on accounts (its password, its ledger account, its
 * verification tokens), done in the transaction that creates it. Accounts knows none of those
 * areas: its module's wiring fills this in from their services.
 */
export interface AccountOpening {
  opened(em: EntityManager, account: Account, passwordHash: string): Promise<void>;
}
