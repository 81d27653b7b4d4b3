import { Field, ObjectType } from 'type-graphql';

/** A connection's page, shared by every paged list of the schema. */
@ObjectType('PageInfo')
export class PageInfoGql {
  @Field(() => Boolean) hasNextPage!: boolean;
  @Field(() => Boolean) hasPreviousPage!: boolean;
  @Field(() => String, { nullable: true, description: 'Pass as `after` for the next page' }) endCursor!: string | null;
  @Field(() => String, { nullable: true, description: 'Pass as `after` for the previous page' }) startCursor!: string | null;
}
