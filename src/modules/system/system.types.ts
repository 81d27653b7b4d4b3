import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType('Ping')
export class PingType {
  @Field(() => Int, { description: 'Seconds since the POSIX epoch' }) currentTime!: number;
  @Field(() => String) networkPassphrase!: string;
  @Field(() => [String], { description: 'Account ids of the first `limit` platforms, oldest first (by default and at most 100)', deprecationReason: 'Use `platformsConnection`' })
  platforms!: string[];
  @Field(() => String) masterAccountId!: string;
}
