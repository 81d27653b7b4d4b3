import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType('Bid')
export class BidGql {
  @Field(() => ID) id!: string;
  @Field(() => ID) lotId!: string;
  @Field(() => String) amount!: string;
  @Field(() => String, { nullable: true, description: "Shown to the lot's organizer and staff, and to the bidder itself" }) bidderId!: string | null;
  @Field(() => Boolean) placedByProxy!: boolean;
  @Field(() => Date) createdAt!: Date;
}

@ObjectType('PlaceBidResult')
export class PlaceBidResultGql {
  @Field(() => String) highestBid!: string;
  @Field(() => [BidGql], { description: 'The bids this request placed, its own and the automatic raises it caused' }) bids!: BidGql[];
}
