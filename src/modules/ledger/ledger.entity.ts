import { BigIntType, Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * An account of the embedded ledger. Its signers other than its own key are the rows of
 * `account_signers` (the one list that request signatures read too).
 */
@Entity({ tableName: 'ledger_accounts' })
export class LedgerAccount {
  [OptionalProps]?: 'sequence' | 'masterWeight' | 'lowThreshold' | 'medThreshold' | 'highThreshold' | 'lastModified' | 'createdAt';

  @PrimaryKey({ type: 'string', length: 56 })
  id!: string;

  @Property({ type: new BigIntType('bigint') })
  sequence: bigint = 0n;

  /** Weight of the account's own key. */
  @Property({ type: 'smallint' })
  masterWeight = 1;

  @Property({ type: 'smallint' })
  lowThreshold = 0;

  @Property({ type: 'smallint' })
  medThreshold = 0;

  @Property({ type: 'smallint' })
  highThreshold = 0;

  /** The ledger that last changed the account (or one of its balances or data entries). */
  @Property({ type: 'integer' })
  lastModified = 1;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}

/** What an account holds of one asset, in stroops (10⁻⁷). The issuer of an asset holds none of it. */
@Entity({ tableName: 'ledger_balances' })
export class LedgerBalance {
  @PrimaryKey({ type: 'string', length: 56 })
  accountId!: string;

  @PrimaryKey({ type: 'string', length: 12 })
  assetCode!: string;

  @PrimaryKey({ type: 'string', length: 56 })
  assetIssuer!: string;

  @Property({ type: new BigIntType('bigint') })
  balance: bigint = 0n;
}

/** A manageData entry. */
@Entity({ tableName: 'ledger_data' })
export class LedgerData {
  @PrimaryKey({ type: 'string', length: 56 })
  accountId!: string;

  @PrimaryKey({ type: 'string', length: 64 })
  name!: string;

  @Property({ type: 'blob' })
  value!: Buffer;
}

/** A closed ledger: one per applied transaction. */
@Entity({ tableName: 'ledgers' })
export class LedgerClose {
  [OptionalProps]?: 'sequence' | 'closedAt';

  @PrimaryKey({ type: 'integer', autoincrement: true })
  sequence!: number;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  closedAt: Date = new Date();

  @Property({ type: 'string', length: 64 })
  txSetHash!: string;

  @Property({ type: 'integer' })
  txCount!: number;
}

@Entity({ tableName: 'ledger_transactions' })
export class LedgerTransaction {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'string', length: 64 })
  hash!: string;

  @Property({ type: 'integer' })
  ledger!: number;

  @Property({ type: 'string', length: 56 })
  sourceAccount!: string;

  @Property({ type: new BigIntType('bigint') })
  sequence!: bigint;

  @Property({ type: 'text' })
  envelopeXdr!: string;

  @Property({ type: 'text' })
  resultXdr!: string;

  @Property({ type: 'text' })
  resultMetaXdr!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
