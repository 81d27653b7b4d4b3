import { Field, InputType, ObjectType } from 'type-graphql';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';

@ObjectType('Token')
export class TokenGql {
  @Field(() => String) accountId!: string;
  @Field(() => String, { description: 'An EdDSA JWT to send as Authorization: Bearer' }) token!: string;
}

@ObjectType('Credentials', { description: 'The credentials of an account; the password is never returned' })
export class CredentialsGql {
  @Field(() => String) accountId!: string;
}

/** The secrets are no part of what a key stands for (see `KeyedCall.input`). */
const KEY_NOTE = 'Sent again by the same account within 24 hours with the same input (the passwords aside), answers the first result';

@InputType('AddCredentialsInput', { description: 'The first password of the signing account' })
export class AddCredentialsInput {
  @Field(() => String) accountId!: string;
  @Field(() => String, { description: '8 to 64 characters; never answered or kept but as its hash' }) password!: string;
  @Field(() => String, { nullable: true, description: KEY_NOTE }) idempotencyKey?: string | null;
}

@ObjectType('AddCredentialsPayload')
export class AddCredentialsPayloadGql {
  @Field(() => CredentialsGql, { nullable: true, description: 'The credentials set' }) credentials!: CredentialsGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}

@InputType('UpdatePasswordInput', { description: "The bearer token's account's password, old and new" })
export class UpdatePasswordInput {
  @Field(() => String) oldPassword!: string;
  @Field(() => String, { description: '8 to 64 characters' }) newPassword!: string;
  @Field(() => String, { nullable: true, description: KEY_NOTE }) idempotencyKey?: string | null;
}

@ObjectType('UpdatePasswordPayload')
export class UpdatePasswordPayloadGql {
  @Field(() => CredentialsGql, { nullable: true, description: 'The credentials changed' }) credentials!: CredentialsGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}
