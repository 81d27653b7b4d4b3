import { Extensions, Field, InputType, ObjectType } from 'type-graphql';
import { listItems } from '../../graphql/list-items';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';
import { AccountGql } from './accounts.types';

const KEY_NOTE = 'Sent again by the same caller within 24 hours with the same input, answers the first result';

@InputType('ConfirmEmailInput', { description: 'The token sent to an account\'s email' })
export class ConfirmEmailInput {
  @Field(() => String) accountId!: string;
  @Field(() => String) token!: string;
  @Field(() => String, { nullable: true, description: KEY_NOTE }) idempotencyKey?: string | null;
}

@InputType('ConfirmPhoneInput', { description: 'The token sent to an account\'s phone' })
export class ConfirmPhoneInput {
  @Field(() => String) accountId!: string;
  @Field(() => String) token!: string;
  @Field(() => String, { nullable: true, description: KEY_NOTE }) idempotencyKey?: string | null;
}

export type ConfirmContactInput = ConfirmEmailInput | ConfirmPhoneInput;

@ObjectType('ConfirmEmailPayload')
export class ConfirmEmailPayloadGql {
  @Field(() => AccountGql, { nullable: true, description: 'The account as verified now' }) account!: AccountGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}

@ObjectType('ConfirmPhonePayload')
export class ConfirmPhonePayloadGql {
  @Field(() => AccountGql, { nullable: true, description: 'The account as verified now' }) account!: AccountGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}

export type ConfirmContactPayloadGql = ConfirmEmailPayloadGql | ConfirmPhonePayloadGql;

@InputType('SendVerificationInput', { description: 'New verification tokens to some of an account\'s channels' })
export class SendVerificationInput {
  @Field(() => String) accountId!: string;
  @Field(() => [String], { description: 'email, phone; a channel named twice is sent once' }) receivers!: string[];
  @Field(() => String, { nullable: true, description: KEY_NOTE }) idempotencyKey?: string | null;
}

@ObjectType('SendVerificationPayload', { description: 'Where new tokens went; never the tokens themselves' })
export class SendVerificationPayloadGql {
  @Field(() => String, { nullable: true }) accountId!: string | null;
  @Extensions(listItems(2))
  @Field(() => [String], { nullable: true, description: 'The channels a new token was sent to, each once: email, phone' }) receivers!: string[] | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}
