import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType('SavedSearch', { description: 'A lot search an account keeps; new lots that match it notify the account' })
export class SavedSearchGql {
  @Field(() => ID) id!: string;
  @Field(() => String) accountId!: string;
  @Field(() => String, { description: "The filters under LotFilter's names, as JSON" }) filterJson!: string;
  @Field(() => String) currency!: string;
  @Field(() => String, { description: 'RFC 3339' }) createdAt!: string;
}
