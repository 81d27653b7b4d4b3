import { Field, ID, ObjectType } from 'type-graphql';
import { AccountGql } from '../accounts';

@ObjectType('Viewer', { description: 'The signed-in account and what its dashboard lists: its participations, watchlist, won and organized lots, notifications' })
export class ViewerGql {
  @Field(() => ID, { description: "The account's id" }) id!: string;
  @Field(() => AccountGql, { description: 'The full record of the account' }) account!: AccountGql;
}
