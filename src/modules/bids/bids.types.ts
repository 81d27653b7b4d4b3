import { Extensions, Field, ID, ObjectType } from 'type-graphql';
import { connectionTypes } from '../../graphql/types/connection';
import { listItems } from '../../graphql/list-items';
import { MOST_BIDS_PER_REQUEST } from './bids.per-request';

@ObjectType('Bid')
export class BidGql {
  @Field(() => ID) id!: string;
  @Field(() => ID) lotId!: string;
  @Field(() => String) amount!: string;
  @Field(() => String, { nullable: true, description: "Shown to the lot's organizer and staff, and to the bidder itself" }) bidderId!: string | null;
  @Field(() => Boolean) placedByProxy!: boolean;
  @Field(() => Date) createdAt!: Date;
}

export const { Connection: BidConnectionGql, Resolver: BidConnectionResolver } = connectionTypes('Bid', () => BidGql);

@ObjectType('PlaceBidResult')
export class PlaceBidResultGql {
  @Field(() => String) highestBid!: string;
  @Field(() => Date, { description: "The lot's end after this request's round: later than before when soft close moved it" }) endTime!: Date;
  @Field(() => Boolean, { nullable: true, description: 'Whether the highest bid reached the reserve price; null: the lot has no reserve' }) reserveMet!: boolean | null;
  @Extensions(listItems(MOST_BIDS_PER_REQUEST))
  @Field(() => [BidGql], { description: 'The bids this request placed, its own and the automatic raises it caused: at most 3' }) bids!: BidGql[];
}
