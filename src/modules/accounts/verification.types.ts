import { Field, InputType, ObjectType } from 'type-graphql';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';
import { AccountGql } from './accounts.types';

@InputType('ConfirmContactInput', { description: 'The token sent to an account\'s email or phone' })
export class ConfirmContactInput {
  @Field(() => String) accountId!: string;
  @Field(() => String) token!: string;
  @Field(() => String, { nullable: true, description: 'Sent again by the same caller within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('ConfirmContactPayload')
export class ConfirmContactPayloadGql {
  @Field(() => AccountGql, { nullable: true, description: 'The account as verified now' }) account!: AccountGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}
