import { Field, InputType, ObjectType } from 'type-graphql';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';
import { AccountGql, CreateAccountInput } from './accounts.types';

/** The secrets are no part of what a key stands for (see `KeyedCall.input`). */
const KEY_NOTE = 'Sent again by the same signer within 24 hours with the same input (the password or seed aside), answers the first result';

@InputType('RegisterAccountInput', { description: 'The attributes of POST /accounts, in camelCase' })
export class RegisterAccountInput extends CreateAccountInput {
  @Field(() => String, { nullable: true, description: KEY_NOTE }) idempotencyKey?: string | null;
}

@ObjectType('RegisterAccountPayload')
export class RegisterAccountPayloadGql {
  @Field(() => AccountGql, { nullable: true, description: 'The account created; never its password' }) account!: AccountGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}

@InputType('RegisterPlatformInput', { description: 'The attributes of POST /platforms, in camelCase' })
export class RegisterPlatformInput {
  @Field(() => String, { description: 'Account id (G…) of the new platform' }) id!: string;
  @Field(() => String, { description: 'The master secret key or one of its signers (S…); it authenticates and is never answered or kept' }) seed!: string;
  @Field(() => String, { nullable: true }) firstName?: string | null;
  @Field(() => String, { nullable: true }) lastName?: string | null;
  @Field(() => String, { nullable: true }) email?: string | null;
  @Field(() => String, { nullable: true }) phoneNumber?: string | null;
  @Field(() => String, { nullable: true }) avatarLink?: string | null;
  @Field(() => String, { nullable: true }) country?: string | null;
  @Field(() => String, { nullable: true }) city?: string | null;
  @Field(() => String, { nullable: true }) address?: string | null;
  @Field(() => String, { nullable: true }) company?: string | null;
  @Field(() => String, { nullable: true, description: KEY_NOTE }) idempotencyKey?: string | null;
}

@ObjectType('RegisterPlatformPayload')
export class RegisterPlatformPayloadGql {
  @Field(() => AccountGql, { nullable: true, description: 'The platform account created' }) account!: AccountGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}
