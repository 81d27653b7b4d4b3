import { Field, ObjectType } from 'type-graphql';

@ObjectType('BlacklistEntry', { description: 'A stopped or paused account' })
export class BlacklistEntryGql {
  @Field(() => String) accountId!: string;
  @Field(() => String, { description: 'stopped (fully blocked) or paused (may sign in and read)' }) state!: string;
}
