import { Field, ID, Int, ObjectType } from 'type-graphql';

@ObjectType('Participant')
export class ParticipantGql {
  @Field(() => ID) id!: string;
  @Field(() => String) accountId!: string;
  @Field(() => ID) lotId!: string;
  @Field(() => Int, { description: '0 pending, 1 rejected, 2 winner, 3 buy_now_winner, 4 deposit_pending, 5 lost, 6 deal_canceled' }) state!: number;
  @Field(() => String) stateStr!: string;
  @Field(() => Boolean) requestedBuyNow!: boolean;
  @Field(() => String, { nullable: true }) currentBid!: string | null;
  @Field(() => String, { nullable: true }) maxBid!: string | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
}

@ObjectType('Deposit')
export class DepositGql {
  @Field(() => ID) id!: string;
  @Field(() => ID) participantId!: string;
  @Field(() => ID) lotId!: string;
  @Field(() => String) accountId!: string;
  @Field(() => String) amount!: string;
  @Field(() => String) currency!: string;
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
  @Field(() => String, { nullable: true }) feeAmount!: string | null;
  @Field(() => String, { nullable: true }) transportationFee!: string | null;
  @Field(() => String, { nullable: true }) feeCurrency!: string | null;
}
