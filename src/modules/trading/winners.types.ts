import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';
import { ParticipantGql } from './trading.types';

const KEY = 'Sent again by the same account within 24 hours with the same input, answers the first result';

@InputType('SelectWinnerInput')
export class SelectWinnerInput {
  @Field(() => ID) lotId!: string;
  @Field(() => ID) participantId!: string;
  @Field(() => Boolean, { nullable: true, description: 'true makes the participant buy_now_winner' }) buyNow?: boolean | null;
  @Field(() => String, { nullable: true, description: "When given, must be the participant's account id" }) accountId?: string | null;
  @Field(() => Boolean, { nullable: true, description: "Required true to choose a participant whose highest bid is under the lot's reserve price" }) acceptBelowReserve?: boolean | null;
  @Field(() => String, { nullable: true, description: KEY }) idempotencyKey?: string | null;
}

@ObjectType('SelectWinnerPayload')
export class SelectWinnerPayloadGql {
  @Field(() => ParticipantGql, { nullable: true, description: 'The participant chosen, now the winner' }) participant!: ParticipantGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}

@InputType('RemoveParticipantInput')
export class RemoveParticipantInput {
  @Field(() => ID) lotId!: string;
  @Field(() => String, { description: "The participant's account" }) accountId!: string;
  @Field(() => String, { nullable: true, description: KEY }) idempotencyKey?: string | null;
}

@ObjectType('RemoveParticipantPayload')
export class RemoveParticipantPayloadGql {
  @Field(() => ID, { nullable: true, description: 'The lot the participant was rejected from' }) lotId!: string | null;
  @Field(() => String, { nullable: true, description: 'The account rejected' }) accountId!: string | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}

@InputType('SettleLotInput')
export class SettleLotInput {
  @Field(() => ID) lotId!: string;
  @Field(() => String, { description: 'sold or finished' }) state!: string;
  @Field(() => String, { nullable: true, description: KEY }) idempotencyKey?: string | null;
}

@ObjectType('SettleLotPayload')
export class SettleLotPayloadGql {
  @Field(() => ID, { nullable: true, description: 'The lot closed' }) lotId!: string | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}
