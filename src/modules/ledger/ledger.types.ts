import { Field, Int, ObjectType } from 'type-graphql';
import { NodeGql } from '../../graphql/types/node';
import type { SubmittedTransaction } from './ledger.embedded';
import { formatStroops } from './ledger.presenter';
import type { LedgerAccountView } from './ledger.service';

@ObjectType('LedgerBalance', { description: 'What a ledger account holds of an asset (code plus issuer)' })
export class LedgerBalanceGql {
  @Field(() => String) assetCode!: string;
  @Field(() => String) assetIssuer!: string;
  @Field(() => String, { description: 'Seven decimals, as on Stellar' }) balance!: string;
}

@ObjectType('LedgerSigner', { description: 'A key that signs for a ledger account, the account’s own key first' })
export class LedgerSignerGql {
  @Field(() => String) key!: string;
  @Field(() => Int) weight!: number;
}

@ObjectType('LedgerThresholds')
export class LedgerThresholdsGql {
  @Field(() => Int) low!: number;
  @Field(() => Int) medium!: number;
  @Field(() => Int) high!: number;
}

@ObjectType('LedgerAccount', { implements: NodeGql, description: 'An account of the embedded ledger' })
export class LedgerAccountGql {
  @Field(() => String) id!: string;
  @Field(() => String, { description: 'Sequence number, a decimal string' }) sequence!: string;
  @Field(() => [LedgerBalanceGql], { description: 'The first `limit` balances by asset code and issuer (by default and at most 100)', deprecationReason: 'Use `balancesConnection`' })
  balances!: LedgerBalanceGql[];
  @Field(() => [LedgerSignerGql], { description: 'The first `limit` signers, the account’s own key first (by default and at most 100)', deprecationReason: 'Use `signersConnection`' })
  signers!: LedgerSignerGql[];
  @Field(() => LedgerThresholdsGql) thresholds!: LedgerThresholdsGql;
}

@ObjectType('SubmittedTransaction', { description: 'A transaction that reached a ledger, with its XDR (base64)' })
export class SubmittedTransactionGql {
  @Field(() => String) envelopeXdr!: string;
  @Field(() => String, { description: 'Hex' }) hash!: string;
  @Field(() => Int) ledger!: number;
  @Field(() => String) resultXdr!: string;
  @Field(() => String) resultMetaXdr!: string;
}

export const ledgerAccountGql = (a: LedgerAccountView): LedgerAccountGql => ({
  id: a.id,
  sequence: a.sequence.toString(),
  balances: a.balances.map((b) => ({ assetCode: b.assetCode, assetIssuer: b.assetIssuer, balance: formatStroops(b.balance) })),
  signers: a.signers,
  thresholds: a.thresholds,
});

@ObjectType('LedgerTransaction', { description: 'A transaction that reached the ledger (GET /ledger/transactions/{hash})' })
export class LedgerTransactionGql {
  @Field(() => String) hash!: string;
  @Field(() => Int) ledger!: number;
  @Field(() => String) sourceAccount!: string;
  @Field(() => String, { description: 'The TransactionEnvelope XDR, base64' }) envelopeXdr!: string;
  @Field(() => String, { description: 'The TransactionResult XDR, base64' }) resultXdr!: string;
  @Field(() => Boolean) successful!: boolean;
}

export const submittedTransactionGql = (s: SubmittedTransaction): SubmittedTransactionGql => ({ ...s });
