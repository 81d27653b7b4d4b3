import { ArgsType, Field } from 'type-graphql';
import { ConnectionArgs, connectionTypes } from '../../graphql/types/connection';
import { CreateLotRequestGql } from './requests.types';

export const { Connection: CreateLotRequestConnectionGql, Resolver: CreateLotRequestConnectionResolver } = connectionTypes('CreateLotRequest', () => CreateLotRequestGql);

/** The page and the filters of both request connections, declared once so the two list alike. */
@ArgsType()
export class CreateLotRequestConnectionArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true }) requestor?: string | null;
  @Field(() => String, { nullable: true, description: 'The reviewing platform' }) reviewer?: string | null;
  @Field(() => [String], { nullable: true, description: 'pending, canceled, approved, rejected, permanently_rejected' }) state?: string[] | null;
  @Field(() => Boolean, { nullable: true }) archived?: boolean | null;
  @Field(() => String, { nullable: true, description: 'Show the prices in this currency' }) currency?: string | null;
}
