import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { NodeGql } from '../../graphql/types/node';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';

@ObjectType('SecondChanceOffer', { implements: NodeGql, description: "A lot offered, after its winner's deal was canceled or its reserve lapsed, to one bidder at that bidder's highest bid (docs/auction-rules.md)" })
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

@InputType('CreateSecondChanceOfferInput')
export class CreateSecondChanceOfferInput {
  @Field(() => ID) lotId!: string;
  @Field(() => String, { nullable: true, description: 'The bidder to offer it to; by default the highest bidder not offered it yet' }) accountId?: string | null;
  @Field(() => Int, { nullable: true, description: "Seconds the offer stays open; at most, and by default, the lot's second_chance_ttl (48 hours when unset)" }) expiresIn?: number | null;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('CreateSecondChanceOfferPayload')
export class CreateSecondChanceOfferPayloadGql {
  @Field(() => SecondChanceOfferGql, { nullable: true, description: 'The offer made' }) secondChanceOffer!: SecondChanceOfferGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}

@InputType('AnswerSecondChanceOfferInput')
export class AnswerSecondChanceOfferInput {
  @Field(() => ID) lotId!: string;
  @Field(() => ID) offerId!: string;
  @Field(() => String, { description: 'accepted or declined' }) state!: string;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('AnswerSecondChanceOfferPayload')
export class AnswerSecondChanceOfferPayloadGql {
  @Field(() => SecondChanceOfferGql, { nullable: true, description: 'The offer answered' }) secondChanceOffer!: SecondChanceOfferGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}
