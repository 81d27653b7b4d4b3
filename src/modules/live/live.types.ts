import { Field, ID, ObjectType, registerEnumType } from 'type-graphql';
import { NodeGql } from '../../graphql/types/node';
import type { BidView, ViewerChangeKind } from './live.feeds';

// Simple resolvers: its fields read the event's properties and nothing else (see CONTEXT_FREE).
@ObjectType('BidEvent', { implements: NodeGql, description: 'An accepted bid, as `bidPlaced` announces it', simpleResolvers: true })
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

const VIEWER_CHANGE_KINDS: Readonly<Record<string, ViewerChangeKind>> = { OUTBID: 'outbid', LEADING: 'leading', WON: 'won', EXTENDED: 'extended' };
registerEnumType(VIEWER_CHANGE_KINDS, {
  name: 'ViewerChangeKind',
  description: "What happened to one of the viewer's participations: OUTBID (another bid took the lead), LEADING (its bid leads), WON (it was chosen the winner), EXTENDED (soft close moved the lot's end)",
});

@ObjectType('ViewerChange', { description: "A change of one of the viewer's participations, with the lot as it is now" })
export class ViewerChangeGql {
  @Field(() => VIEWER_CHANGE_KINDS) kind!: ViewerChangeKind;
  @Field(() => ID) lotId!: string;
  @Field(() => Date, { description: 'When it happened' }) at!: Date;
}
