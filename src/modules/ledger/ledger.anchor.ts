import type { EntityManager } from '@mikro-orm/postgresql';
import { Account, Operation, TransactionBuilder, type Keypair } from '@stellar/stellar-sdk';
import { rowsOf } from '../../db/query';
import { sql } from '../../db/sql';
import type { EmbeddedLedger } from './ledger.embedded';
import type { HorizonRelay } from './ledger.horizon';

/** A `ledger_accounts` row: its sequence (bigint) as text. */
interface LedgerAccountColumns {
  sequence: string;
}

export interface DataEntry {
  /** At most 64 bytes, as Stellar's data entry names. */
  name: string;
  /** At most 64 bytes. */
  value: Buffer;
}

export interface DataWritten {
  /** The transaction's hash, hex. */
  hash: string;
  ledger: number;
  account: string;
}

/** Stellar takes at most 100 operations in a transaction. */
const MOST_DATA_ENTRIES = 100;

/**
 * Writes data entries on a key's own account with `manage_data` operations, in one transaction
 * signed by the key: on the embedded ledger in the caller's database transaction (the account is
 * opened there when new), or on the network behind Horizon (`HORIZON_URL`), where the account
 * must exist and be funded.
 */
export class LedgerDataWriter {
  constructor(
    private readonly networkPassphrase: string,
    private readonly embedded: EmbeddedLedger,
    private readonly horizon: HorizonRelay | null,
  ) {}

  async write(em: EntityManager, key: Keypair, entries: readonly DataEntry[]): Promise<DataWritten> {
    const account = key.publicKey();
    const source = this.horizon ? await this.horizon.account(account) : await this.embeddedAccount(em, account);
    const builder = new TransactionBuilder(source, { fee: '100', networkPassphrase: this.networkPassphrase });
    for (const e of entries.slice(0, MOST_DATA_ENTRIES)) builder.addOperation(Operation.manageData({ name: e.name, value: e.value }));
    const tx = builder.setTimeout(60).build();
    tx.sign(key);
    const submitted = this.horizon ? await this.horizon.submit(tx) : await this.embedded.apply(em, tx);
    return { hash: submitted.hash, ledger: submitted.ledger, account };
  }

  private async embeddedAccount(em: EntityManager, id: string): Promise<Account> {
    await rowsOf(em, sql`insert into ledger_accounts (id, sequence) values (${id}, 0) on conflict (id) do nothing`);
    const [row] = await rowsOf<LedgerAccountColumns>(em, sql`select sequence::text from ledger_accounts where id = ${id}`);
    return new Account(id, row.sequence);
  }
}
