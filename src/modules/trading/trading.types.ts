import { NodeGql } from '../../graphql/types/node';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { connectionTypes } from '../../graphql/types/connection';
import { domainEnum } from '../../graphql/types/enums';
import { MoneyGql } from '../../graphql/types/money';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';
import { DEPOSIT_STATE_NAMES, PARTICIPANT_STATE_NAMES } from './trading.entity';

export const ParticipantStateGql = domainEnum('ParticipantState', PARTICIPANT_STATE_NAMES, "Where a participant stands in a lot: PENDING (in the running), REJECTED, WINNER, BUY_NOW_WINNER, DEPOSIT_PENDING (its deposit is awaited), LOST, DEAL_CANCELED (won, then the deal was canceled)");
export const DepositStateGql = domainEnum('DepositState', DEPOSIT_STATE_NAMES, 'A deposit: PENDING (awaited), PAID, RETURNED, FEE_CHARGED (kept as the fee)');

@ObjectType('Participant', { implements: NodeGql })
export class ParticipantGql {
  @Field(() => ID) id!: string;
  @Field(() => String) accountId!: string;
  @Field(() => ID) lotId!: string;
  @Field(() => Int, { description: '0 pending, 1 rejected, 2 winner, 3 buy_now_winner, 4 deposit_pending, 5 lost, 6 deal_canceled' }) state!: number;
  @Field(() => String) stateStr!: string;
  @Field(() => Boolean) requestedBuyNow!: boolean;
  @Field(() => String, { nullable: true, deprecationReason: 'Use `currentBidMoney`' }) currentBid!: string | null;
  @Field(() => String, { nullable: true, deprecationReason: 'Use `maxBidMoney`' }) maxBid!: string | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}

@ObjectType('Participation', { description: "One of the viewer's participations: the participant, and whether its bid leads the lot" })
export class ParticipationGql extends ParticipantGql {
  @Field(() => Boolean, { description: "Whether this participant's current bid is the lot's highest bid" }) isLeading!: boolean;
}

@ObjectType('Deposit', { implements: NodeGql })
export class DepositGql {
  @Field(() => ID) id!: string;
  @Field(() => ID) participantId!: string;
  @Field(() => ID) lotId!: string;
  @Field(() => String) accountId!: string;
  @Field(() => String, { deprecationReason: 'Use `amountMoney`' }) amount!: string;
  @Field(() => String, { deprecationReason: 'Use `amountMoney`: its `currency`' }) currency!: string;
  @Field(() => MoneyGql, { description: 'The amount in its currency' }) amountMoney!: MoneyGql;
  @Field(() => Int, { description: '1 pending, 2 paid, 3 returned, 4 fee_charged' }) state!: number;
  @Field(() => String) stateStr!: string;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}

@ObjectType('WinnerDetails')
export class WinnerDetailsGql {
  @Field(() => ID) lotId!: string;
  @Field(() => String, { nullable: true }) invoiceId!: string | null;
  @Field(() => Boolean, { nullable: true }) invoicePaid!: boolean | null;
  @Field(() => Boolean, { nullable: true }) dealCanceled!: boolean | null;
  @Field(() => String, { nullable: true }) containerId!: string | null;
  @Field(() => String, { nullable: true }) serviceLink!: string | null;
  @Field(() => String, { nullable: true, deprecationReason: 'Use `fee`' }) feeAmount!: string | null;
  @Field(() => String, { nullable: true, deprecationReason: 'Use `transportationFeeMoney`' }) transportationFee!: string | null;
  @Field(() => String, { nullable: true, deprecationReason: 'Use `fee`: its `currency`' }) feeCurrency!: string | null;
  @Field(() => MoneyGql, { nullable: true, description: "The buyer's fee; null when not set, or set without a currency" }) fee!: MoneyGql | null;
  @Field(() => MoneyGql, { nullable: true, description: 'The transportation fee, in the currency of `fee`; null when not set, or set without a currency' }) transportationFeeMoney!: MoneyGql | null;
}

export const { Connection: DepositConnectionGql, Resolver: DepositConnectionResolver } = connectionTypes('Deposit', () => DepositGql);

@InputType('WinnerDetailsInput', { description: 'Winner details to set; an absent field keeps its value, null clears it' })
export class WinnerDetailsInput {
  @Field(() => String, { nullable: true, description: 'Document id of the invoice' }) invoiceId?: string | null;
  @Field(() => Boolean, { nullable: true, description: 'true charges the winner\'s deposit (fee_charged); cannot be undone' }) invoicePaid?: boolean | null;
  @Field(() => Boolean, { nullable: true, description: 'true moves the winner to deal_canceled and charges its deposit; cannot be undone' }) dealCanceled?: boolean | null;
  @Field(() => String, { nullable: true, description: 'Up to 100 characters' }) containerId?: string | null;
  @Field(() => String, { nullable: true }) serviceLink?: string | null;
  @Field(() => String, { nullable: true, description: 'A decimal with at most two places and 15 digits' }) feeAmount?: string | null;
  @Field(() => String, { nullable: true, description: 'A decimal with at most two places and 15 digits' }) transportationFee?: string | null;
  @Field(() => String, { nullable: true, description: 'Currency of feeAmount and transportationFee' }) feeCurrency?: string | null;
}

@InputType('SubmitParticipationRequestInput')
export class SubmitParticipationRequestInput {
  @Field(() => ID) lotId!: string;
  @Field(() => Boolean, { nullable: true, description: 'Required true for a direct sale' }) buyNow?: boolean | null;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('SubmitParticipationRequestPayload')
export class SubmitParticipationRequestPayloadGql {
  @Field(() => ParticipantGql, { nullable: true, description: 'The caller as a participant of the lot' }) participant!: ParticipantGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}

@InputType('SubmitBuyNowRequestInput')
export class SubmitBuyNowRequestInput {
  @Field(() => ID) lotId!: string;
  @Field(() => String, { description: "The participant's account: the caller itself" }) accountId!: string;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('SubmitBuyNowRequestPayload')
export class SubmitBuyNowRequestPayloadGql {
  @Field(() => ParticipantGql, { nullable: true, description: 'The participant, its buy-now request recorded' }) participant!: ParticipantGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}

@InputType('UpdateWinnerDetailsInput', { description: 'Winner details to set; an absent field keeps its value, null clears it' })
export class UpdateWinnerDetailsInput extends WinnerDetailsInput {
  @Field(() => ID) lotId!: string;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('UpdateWinnerDetailsPayload')
export class UpdateWinnerDetailsPayloadGql {
  @Field(() => WinnerDetailsGql, { nullable: true, description: "The lot's winner details as they are now" }) winnerDetails!: WinnerDetailsGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}

@InputType('UpdateDepositStateInput')
export class UpdateDepositStateInput {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: 'paid or returned' }) state!: string;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('UpdateDepositStatePayload')
export class UpdateDepositStatePayloadGql {
  @Field(() => DepositGql, { nullable: true, description: 'The deposit in its new state' }) deposit!: DepositGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}
