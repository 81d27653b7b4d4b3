import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { rfc3339 } from '../../core/time';
import { NodeGql } from '../../graphql/types/node';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';
import type { SavedSearch } from './searches.service';
import { LotFilterInput } from '../lots';

@ObjectType('SavedSearch', { implements: NodeGql, description: 'A lot search an account keeps; new lots that match it notify the account' })
export class SavedSearchGql {
  @Field(() => ID) id!: string;
  @Field(() => String) accountId!: string;
  @Field(() => String, { description: "The filters under LotFilter's names, as JSON" }) filterJson!: string;
  @Field(() => String) currency!: string;
  @Field(() => String, { description: 'RFC 3339', deprecationReason: 'Use `createdTime`' }) createdAt!: string;
  @Field(() => Date, { description: 'The time of `createdAt`' }) createdTime!: Date;
}

export const savedSearchGql = (s: SavedSearch): SavedSearchGql => ({ id: s.id, accountId: s.accountId, filterJson: JSON.stringify(s.filter), currency: s.currency, createdAt: rfc3339(s.createdAt), createdTime: s.createdAt });

@InputType('RemoveSavedSearchInput')
export class RemoveSavedSearchInput {
  @Field(() => String) accountId!: string;
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('RemoveSavedSearchPayload')
export class RemoveSavedSearchPayloadGql {
  @Field(() => ID, { nullable: true, description: 'The saved search deleted' }) savedSearchId!: string | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}

@InputType('AddSavedSearchInput')
export class AddSavedSearchInput {
  @Field(() => String) accountId!: string;
  @Field(() => LotFilterInput, { description: 'The filters of lots (a subset: docs/saved-searches.md)' }) filter!: LotFilterInput;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('AddSavedSearchPayload')
export class AddSavedSearchPayloadGql {
  @Field(() => SavedSearchGql, { nullable: true, description: 'The saved search made' }) savedSearch!: SavedSearchGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}
