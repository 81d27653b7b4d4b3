import { Field, InputType, ObjectType } from 'type-graphql';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';

@ObjectType('BlacklistEntry', { description: 'A stopped or paused account' })
export class BlacklistEntryGql {
  @Field(() => String) accountId!: string;
  @Field(() => String, { description: 'stopped (fully blocked) or paused (may sign in and read)' }) state!: string;
}

@InputType('AddBlacklistEntryInput')
export class AddBlacklistEntryInput {
  @Field(() => String) accountId!: string;
  @Field(() => String, { description: 'stopped or paused' }) state!: string;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('AddBlacklistEntryPayload')
export class AddBlacklistEntryPayloadGql {
  @Field(() => BlacklistEntryGql, { nullable: true, description: 'The account as it is blacklisted now' }) blacklistEntry!: BlacklistEntryGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}

@InputType('RemoveBlacklistEntryInput')
export class RemoveBlacklistEntryInput {
  @Field(() => String) accountId!: string;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('RemoveBlacklistEntryPayload')
export class RemoveBlacklistEntryPayloadGql {
  @Field(() => String, { nullable: true, description: 'The account taken off the blacklist' }) accountId!: string | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}
