import { Field, ID, ObjectType } from 'type-graphql';

@ObjectType('SecondChanceOffer', { description: "A lot offered, after its winner's deal was canceled or its reserve lapsed, to one bidder at that bidder's highest bid (docs/auction-rules.md)" })
export class SecondChanceOfferGql {
  @Field(() => ID) id!: string;
  @Field(() => ID) lotId!: string;
  @Field(() => ID) participantId!: string;
  @Field(() => String, { description: 'The bidder offered, the only one who may answer' }) accountId!: string;
  @Field(() => String) amount!: string;
  @Field(() => String) currency!: string;
  @Field(() => String, { description: 'open, accepted, declined or expired' }) state!: string;
  @Field(() => Date) expiresAt!: Date;
  @Field(() => String) offeredBy!: string;
  @Field(() => Date, { nullable: true }) answeredAt!: Date | null;
  @Field(() => Date) createdAt!: Date;
}
