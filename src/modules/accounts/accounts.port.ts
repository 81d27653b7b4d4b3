import type { EntityManager } from '@mikro-orm/postgresql';
import type { ErrorSource } from '../../core/errors';
import type { Account } from './accounts.entity';

/**
 * What a new account needs of the areas built on accounts (its password, its ledger account, its
 * verification tokens), done in the transaction that creates it. Accounts knows none of those
 * areas: its module's wiring fills this in from their services.
 */
export interface AccountOpening {
  opened(em: EntityManager, account: Account, passwordHash: string): Promise<void>;
}

/** The lots area's answer to whom a buyer of a lot may call: its organizer when it is a direct sale, else null; not found, at `source`, when there is no such lot. */
export interface DirectSales {
  organizerOf(em: EntityManager, lotId: unknown, source: ErrorSource): Promise<string | null>;
}
