import { Field, ID, ObjectType } from 'type-graphql';
import type { BidView } from './live.feeds';

// Simple resolvers: its fields read the event's properties and nothing else (see CONTEXT_FREE).
@ObjectType('BidEvent', { description: 'An accepted bid, as `bidPlaced` announces it', simpleResolvers: true })
export class BidEventGql {
  @Field(() => ID) id!: string;
  @Field(() => ID) lotId!: string;
  @Field(() => String) amount!: string;
  @Field(() => String, { description: "The lot's highest bid once the request that placed this bid committed" }) highestBid!: string;
  @Field(() => String, { nullable: true, description: "Shown to the bidder itself and staff of the lot's publisher" }) bidderId!: string | null;
  @Field(() => Boolean, { description: 'True for the automatic raises of a max bid' }) placedByProxy!: boolean;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date, { nullable: true, description: "The lot's end once the request that placed this bid committed, later than before when soft close moved it; for a replayed bid, the lot's end when it is replayed" })
  endTime!: Date | null;
}

export const bidEventGql = (b: BidView): BidEventGql => ({
  id: b.id,
  lotId: b.lotId,
  amount: b.amount,
  highestBid: b.highestBid,
  bidderId: b.bidderId,
  placedByProxy: b.placedByProxy,
  createdAt: b.createdAt,
  endTime: b.endTime ?? null,
});
