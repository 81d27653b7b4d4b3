import { Field, InputType, ObjectType } from 'type-graphql';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';

/** The secrets are no part of what a key stands for (see `KeyedCall.input`). */
const KEY_NOTE = 'Sent again by the same signer within 24 hours with the same input (the token and password aside), answers the first result';

@InputType('StartRecoveryInput', { description: 'The account by its id, or by its email together with its platform' })
export class StartRecoveryInput {
  @Field(() => String, { nullable: true }) accountId?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) platformId?: string | null;
  @Field(() => String, { nullable: true, description: KEY_NOTE }) idempotencyKey?: string | null;
}

@ObjectType('StartRecoveryPayload', { description: 'Whether a recovery token went out; never the token, nor which account an email names' })
export class StartRecoveryPayloadGql {
  @Field(() => Boolean, { nullable: true, description: "True: a token went to the account's verified email" }) sent!: boolean | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}

@InputType('ConfirmRecoveryInput', { description: "The token of the account's recovery request and its new password" })
export class ConfirmRecoveryInput {
  @Field(() => String) accountId!: string;
  @Field(() => String) token!: string;
  @Field(() => String, { description: '8 to 64 characters' }) newPassword!: string;
  @Field(() => String, { nullable: true, description: KEY_NOTE }) idempotencyKey?: string | null;
}

@ObjectType('ConfirmRecoveryPayload')
export class ConfirmRecoveryPayloadGql {
  @Field(() => String, { nullable: true, description: 'The account whose password the token set' }) accountId!: string | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}
