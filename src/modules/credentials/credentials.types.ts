import { Field, ObjectType } from 'type-graphql';

@ObjectType('Token')
export class TokenGql {
  @Field(() => String) accountId!: string;
  @Field(() => String, { description: 'An EdDSA JWT to send as Authorization: Bearer' }) token!: string;
}
