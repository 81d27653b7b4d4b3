import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType('BuyingPower', { description: "An account's buying power on a platform, in currency (EUR): limit is multiple × deposits (paid), inUse its leading and unpaid won bids; limit and left are null while the platform sets no buying_power_multiple" })
export class BuyingPowerGql {
  @Field(() => ID) accountId!: string;
  @Field(() => ID) platformId!: string;
  @Field(() => String, { nullable: true }) multiple!: string | null;
  @Field(() => String) deposits!: string;
  @Field(() => String, { nullable: true }) limit!: string | null;
  @Field(() => String) inUse!: string;
  @Field(() => String, { nullable: true, description: 'Never below 0' }) left!: string | null;
  @Field(() => String) currency!: string;
}
