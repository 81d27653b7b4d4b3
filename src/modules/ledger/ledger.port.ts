import type { EntityManager } from '@mikro-orm/postgresql';
import { changedBy } from '../../db/query';
import { sql } from '../../db/sql';

/** What the rest of the service needs of the ledger before the ledger issue fills it in. */
export interface LedgerAccounts {
  /** Opens the ledger account of a new service account: sequence 0, no balances, its own key a signer of weight 1. */
  open(em: EntityManager, accountId: string): Promise<void>;
}

/** The embedded ledger's account row; its columns default to an own-key weight of 1 and thresholds of 0. */
export class EmbeddedLedgerAccounts implements LedgerAccounts {
  async open(em: EntityManager, accountId: string): Promise<void> {
    await changedBy(em, sql`insert into ledger_accounts (id, sequence) values (${accountId}, 0) on conflict (id) do nothing`);
  }
}
