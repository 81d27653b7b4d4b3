import { Extensions, Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { listItems } from '../../graphql/list-items';
import { MoneyGql } from '../../graphql/types/money';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';
import { MAX_BANDS } from './rules.input';

@ObjectType('IncrementBand', { description: 'Bids above a highest bid up to upTo (inclusive; null: any) step by at least minStep and at most maxStep (null: the lot\'s own max_step)' })
export class IncrementBandGql {
  @Field(() => String, { nullable: true }) upTo!: string | null;
  @Field(() => String) minStep!: string;
  @Field(() => String, { nullable: true }) maxStep!: string | null;
}

@ObjectType('FeeBand', { description: "The buyer's fee on a price up to upTo (inclusive; null: any): fixed plus percent of the price" })
export class FeeBandGql {
  @Field(() => String, { nullable: true }) upTo!: string | null;
  @Field(() => String) fixed!: string;
  @Field(() => String) percent!: string;
}

@ObjectType('DepositRule', { description: 'A fixed deposit, or percent of the start price but at least floor' })
export class DepositRuleGql {
  @Field(() => String, { nullable: true }) fixed!: string | null;
  @Field(() => String, { nullable: true }) percent!: string | null;
  @Field(() => String, { nullable: true }) floor!: string | null;
}

@ObjectType('PlatformRules', { description: "A platform's auction rules; version 0 is never configured. Lots keep the version they were created with" })
export class PlatformRulesGql {
  @Field(() => ID) platformId!: string;
  @Field(() => Int) version!: number;
  @Extensions(listItems(MAX_BANDS))
  @Field(() => [IncrementBandGql], { nullable: true, description: 'At most 50 bands' }) increments!: IncrementBandGql[] | null;
  @Field(() => Int, { nullable: true, description: 'Seconds' }) minDuration!: number | null;
  @Field(() => Int, { nullable: true, description: 'Seconds' }) maxDuration!: number | null;
  @Field(() => Int, { nullable: true }) maxLotsPerSeller!: number | null;
  @Field(() => DepositRuleGql, { nullable: true }) deposit!: DepositRuleGql | null;
  @Extensions(listItems(MAX_BANDS))
  @Field(() => [FeeBandGql], { nullable: true, description: 'At most 50 bands' }) buyerFees!: FeeBandGql[] | null;
  @Field(() => Int, { nullable: true, description: 'Soft close: seconds before the end in which a bid moves the end' }) extendWindow!: number | null;
  @Field(() => Int, { nullable: true, description: 'Soft close: the end moves to at least the bid time plus these seconds' }) extendBy!: number | null;
  @Field(() => Int, { nullable: true, description: "Soft close: seconds a lot's end may move in all, past the end it was created with; null: no limit" }) maxExtensionSeconds!: number | null;
  @Field(() => Int, { nullable: true, description: 'Reserve price: seconds after the end until a lot whose reserve was not met lapses (finished) unless a winner is chosen; null: never' }) reserveLapseAfter!: number | null;
  @Field(() => Int, { nullable: true, description: 'Seconds a second-chance offer stays open at most; null: 48 hours' }) secondChanceTtl!: number | null;
  @Field(() => String, { nullable: true, description: "Buying power: a participant's leading and unpaid won bids stay within this multiple of its paid deposits; null: off" }) buyingPowerMultiple!: string | null;
  @Field(() => Date, { nullable: true }) createdAt!: Date | null;
}

@InputType('IncrementBandInput')
export class IncrementBandInput {
  @Field(() => String, { nullable: true }) upTo?: string | null;
  @Field(() => String) minStep!: string;
  @Field(() => String, { nullable: true }) maxStep?: string | null;
}

@InputType('FeeBandInput')
export class FeeBandInput {
  @Field(() => String, { nullable: true }) upTo?: string | null;
  @Field(() => String, { nullable: true }) fixed?: string;
  @Field(() => String, { nullable: true }) percent?: string;
}

@InputType('DepositRuleInput')
export class DepositRuleInput {
  @Field(() => String, { nullable: true }) fixed?: string;
  @Field(() => String, { nullable: true }) percent?: string;
  @Field(() => String, { nullable: true }) floor?: string;
}

@InputType('PlatformRulesInput', { description: 'Each rule given replaces the current one, null turns it off, an absent one stays' })
export class PlatformRulesInput {
  @Field(() => [IncrementBandInput], { nullable: true }) increments?: IncrementBandInput[] | null;
  @Field(() => Int, { nullable: true }) minDuration?: number | null;
  @Field(() => Int, { nullable: true }) maxDuration?: number | null;
  @Field(() => Int, { nullable: true }) maxLotsPerSeller?: number | null;
  @Field(() => DepositRuleInput, { nullable: true }) deposit?: DepositRuleInput | null;
  @Field(() => [FeeBandInput], { nullable: true }) buyerFees?: FeeBandInput[] | null;
  @Field(() => Int, { nullable: true }) extendWindow?: number | null;
  @Field(() => Int, { nullable: true }) extendBy?: number | null;
  @Field(() => Int, { nullable: true }) maxExtensionSeconds?: number | null;
  @Field(() => Int, { nullable: true }) reserveLapseAfter?: number | null;
  @Field(() => Int, { nullable: true }) secondChanceTtl?: number | null;
  @Field(() => String, { nullable: true }) buyingPowerMultiple?: string | null;
}

@ObjectType('FeeEstimate', { description: "What a buyer pays for a lot at a price: the price plus the buyer's fee of the lot's rules" })
export class FeeEstimateGql {
  @Field(() => ID) lotId!: string;
  @Field(() => String, { deprecationReason: 'Use `amountMoney`' }) amount!: string;
  @Field(() => String, { deprecationReason: 'Use `buyerFeeMoney`' }) buyerFee!: string;
  @Field(() => String, { deprecationReason: 'Use `totalMoney`' }) total!: string;
  @Field(() => String, { deprecationReason: 'Use `amountMoney`: each Money has its `currency`' }) currency!: string;
  @Field(() => MoneyGql, { description: "The amount estimated on, in the lot's currency" }) amountMoney!: MoneyGql;
  @Field(() => MoneyGql, { description: "The buyer's fee on it" }) buyerFeeMoney!: MoneyGql;
  @Field(() => MoneyGql, { description: 'The amount and the fee' }) totalMoney!: MoneyGql;
  @Field(() => Int, { nullable: true }) rulesVersion!: number | null;
}

@InputType('EditPlatformRulesInput', { description: 'Each rule given replaces the current one, null turns it off, an absent one stays' })
export class EditPlatformRulesInput extends PlatformRulesInput {
  @Field(() => ID) platformId!: string;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('EditPlatformRulesPayload')
export class EditPlatformRulesPayloadGql {
  @Field(() => PlatformRulesGql, { nullable: true, description: 'The new version of the rules' }) platformRules!: PlatformRulesGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}
