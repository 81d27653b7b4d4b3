import { Field, ObjectType } from 'type-graphql';

@ObjectType('Token')
export class TokenGql {
  @Field(() => String) accountId!: string;
  @Field(() => String, { description: 'An EdDSA JWT to send as Authorization: Bearer' }) token!: string;
}

@ObjectType('Credentials', { description: 'The credentials of an account; the password is never returned' })
export class CredentialsGql {
  @Field(() => String) accountId!: string;
}
