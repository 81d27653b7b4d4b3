import { Field, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';
import { SubmittedTransactionGql } from './ledger.types';

export enum TransactionOutcome {
  APPLIED = 'APPLIED',
  UNKNOWN = 'UNKNOWN',
}

registerEnumType(TransactionOutcome, {
  name: 'TransactionOutcome',
  description: 'What became of a sent transaction',
  valuesConfig: {
    APPLIED: { description: 'In a ledger: `transaction` holds its result' },
    UNKNOWN: { description: 'The network did not answer in time and may still apply it: look it up by `hash` (`ledgerTransaction`) later; sending it again is safe, its sequence is spent once' },
  },
});

@InputType('SendTransactionInput', { description: 'The envelope of POST /transactions' })
export class SendTransactionInput {
  @Field(() => String, { description: 'A base64 XDR transaction envelope, authenticated by its own signatures' }) tx!: string;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('SendTransactionPayload')
export class SendTransactionPayloadGql {
  @Field(() => TransactionOutcome, { nullable: true, description: 'Null when refused (userErrors says why: TRANSACTION_FAILED is a rejection, nothing applied)' }) outcome!: TransactionOutcome | null;
  @Field(() => String, { nullable: true, description: "The transaction's hash (hex)" }) hash!: string | null;
  @Field(() => SubmittedTransactionGql, { nullable: true, description: 'The transaction applied; null while its outcome is unknown' }) transaction!: SubmittedTransactionGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}
