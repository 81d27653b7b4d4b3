import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType('Account')
export class AccountGql {
  @Field(() => String) id!: string;
  @Field(() => Int, { description: '1 master, 2 platform, 4 user, 5 admin, 6 broker' }) accountType!: number;
  @Field(() => String) accountTypeStr!: string;
  @Field(() => String, { nullable: true }) platformId!: string | null;
}
