import { Field, InputType, ObjectType } from 'type-graphql';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';

@InputType('AddMasterAccountSignerInput', { description: 'The signer of POST /master/signers' })
export class AddMasterAccountSignerInput {
  @Field(() => String, { description: 'An ed25519 public key (G…)' }) publicKey!: string;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('AddMasterAccountSignerPayload')
export class AddMasterAccountSignerPayloadGql {
  @Field(() => String, { nullable: true, description: 'The public key now a signer of the master account (a public key, never a secret)' }) publicKey!: string | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}
