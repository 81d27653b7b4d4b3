import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { connectionTypes } from '../../graphql/types/connection';
import { domainEnum } from '../../graphql/types/enums';
import { NodeGql } from '../../graphql/types/node';
import { CurrencyGql } from '../../graphql/types/money';
import { LOT_STATE_NAMES, LOT_TYPE_NAMES, type LotState, type LotType } from './lots.entity';
import { LOT_STATUSES, type LotStatus } from './lots.open';

export const LotStatusGql = domainEnum('LotStatus', LOT_STATUSES, 'Where a lot stands: SCHEDULED (not started), LIVE (taking bids), ENDED (over, awaiting its close), SOLD, FINISHED (closed without a sale)');
export const LotStateGql = domainEnum('LotState', LOT_STATE_NAMES, 'The state a lot is stored in: PENDING until closed SOLD or FINISHED (see LotStatus for scheduled, live and ended)');
export const LotTypeGql = domainEnum('LotType', LOT_TYPE_NAMES, 'How a lot is sold: NO_AUCTION (direct sale), ENG (English auction), PARTNER_A, PARTNER_B (partner imports)');

@ObjectType('Lot', { implements: NodeGql })
export class LotGql {
  @Field(() => ID) id!: string;
  @Field(() => Int, { description: '0 no_auction, 1 eng, 2 partnerA, 3 partnerB', deprecationReason: 'Use `type`' }) lotType!: number;
  @Field(() => String, { deprecationReason: 'Use `type`' }) lotTypeStr!: string;
  @Field(() => Int, { description: '1 pending, 2 sold, 3 finished', deprecationReason: 'Use `state`, or `status` to tell scheduled, live and ended lots apart' }) lotState!: number;
  @Field(() => String, { deprecationReason: 'Use `state`, or `status` to tell scheduled, live and ended lots apart' }) lotStateStr!: string;
  @Field(() => String, { description: 'The currency the prices are shown in', deprecationReason: 'Use `prices`: each Money has its `currency`' }) currency!: string;
  @Field(() => String, { deprecationReason: 'Use `prices.start`' }) startPrice!: string;
  @Field(() => String, { deprecationReason: 'Use `prices.buyNow`' }) buyNowPrice!: string;
  @Field(() => String, { deprecationReason: 'Use `prices.deposit`' }) deposit!: string;
  @Field(() => String, { deprecationReason: 'Use `prices.minStep`' }) minStep!: string;
  @Field(() => String, { deprecationReason: 'Use `prices.maxStep`' }) maxStep!: string;
  @Field(() => String, { description: '0.00 until the first accepted bid; as Money (null until then): `prices.highestBid`' }) highestBid!: string;
  @Field(() => String, { nullable: true, deprecationReason: 'Use `prices.b2bVehicle`' }) b2bVehiclePrice!: string | null;
  @Field(() => String, { nullable: true, deprecationReason: 'Use `prices.b2cVehicle`' }) b2cVehiclePrice!: string | null;
  @Field(() => String, { nullable: true, deprecationReason: 'Use `prices.b2cTotal`' }) b2cTotalPrice!: string | null;
  @Field(() => Boolean) buyNowSupport!: boolean;
  @Field(() => Date) startTime!: Date;
  @Field(() => Date) endTime!: Date;
  @Field(() => Int, { description: 'Seconds' }) duration!: number;
  @Field(() => String) organizerId!: string;
  @Field(() => String) publisherId!: string;
  @Field(() => String, { nullable: true, description: "The winning participant's account id" }) winnerId!: string | null;
  @Field(() => GraphQLJSONObject, { deprecationReason: 'Use `vehicle`' }) details!: Record<string, unknown>;
  @Field(() => Int, { nullable: true, description: "The version of its platform's rules the lot was created with; null: none" }) rulesVersion!: number | null;
  @Field(() => Boolean, { nullable: true, description: 'Whether the highest bid reached the reserve price; null: the lot has no reserve' }) reserveMet!: boolean | null;
  @Field(() => String, { nullable: true, description: "The hidden reserve price, to the lot's organizer and staff of its publisher; null to anyone else, or without a reserve", deprecationReason: 'Use `prices.reserve`' })
  reservePrice!: string | null;
  @Field(() => Date, { nullable: true, description: 'When the lot finished because its reserve was not met and nobody chose a winner in time' }) lapsedAt!: Date | null;
  @Field(() => Date) createdAt!: Date;
  @Field(() => Date) updatedAt!: Date;
  @Field(() => LotStatusGql, { description: 'Where the lot stands: scheduled, live, ended (awaiting its close), sold or finished' }) status!: LotStatus;
}

@ObjectType('LotCallback', { implements: NodeGql, description: 'An account asked to be called back about the lot' })
export class LotCallbackGql {
  @Field(() => ID) id!: string;
  @Field(() => ID) lotId!: string;
  @Field(() => String) accountId!: string;
  @Field(() => Date) createdAt!: Date;
}

@ObjectType('LotStar', { description: 'An account that has the lot in its watchlist' })
export class LotStarGql {
  @Field(() => ID) lotId!: string;
  @Field(() => String) accountId!: string;
  @Field(() => Date) createdAt!: Date;
}

export const { Connection: LotConnectionGql, Resolver: LotConnectionResolver } = connectionTypes('Lot', () => LotGql);

export enum LotSortKeyGql {
  start_time = 'start_time',
  time_left = 'time_left',
  price = 'price',
  buy_now_price = 'buy_now_price',
  created_at = 'created_at',
  updated_at = 'updated_at',
}
registerEnumType(LotSortKeyGql, { name: 'LotSortKey' });

@InputType('LotSort')
export class LotSortInput {
  @Field(() => LotSortKeyGql) key!: LotSortKeyGql;
  @Field(() => Boolean, { defaultValue: false }) desc!: boolean;
}

@InputType('IntRange')
export class IntRangeInput {
  @Field(() => Int, { nullable: true }) min?: number;
  @Field(() => Int, { nullable: true }) max?: number;
}

@InputType('DateTimeRange', { description: 'From one time to another, both included, at whole seconds; either may be left out' })
export class DateTimeRangeInput {
  @Field(() => Date, { nullable: true }) from?: Date;
  @Field(() => Date, { nullable: true }) to?: Date;
}

@InputType('DecimalRange')
export class DecimalRangeInput {
  @Field(() => String, { nullable: true }) min?: string;
  @Field(() => String, { nullable: true }) max?: string;
}

/** The lot filters of `lots.filter.table.ts`, field for field (test/unit/lot-filters.test.ts holds them equal). */
@InputType('LotFilter')
export class LotFilterInput {
  @Field(() => String, { nullable: true }) country?: string;
  @Field(() => String, { nullable: true }) city?: string;
  @Field(() => String, { nullable: true }) starsOf?: string;
  @Field(() => [ID], { nullable: true }) in?: string[];
  @Field(() => [String], { nullable: true }) vin?: string[];
  @Field(() => String, { nullable: true }) organizerType?: string;
  @Field(() => [String], { nullable: true, deprecationReason: 'Use `types`' }) lotType?: string[];
  @Field(() => [LotTypeGql], { nullable: true, description: 'Lots of any of these types' }) types?: LotType[];
  @Field(() => [String], { nullable: true, deprecationReason: 'Use `states`' }) lotState?: string[];
  @Field(() => [LotStateGql], { nullable: true, description: 'Lots in any of these states' }) states?: LotState[];
  @Field(() => String, { nullable: true }) participant?: string;
  @Field(() => String, { nullable: true }) winner?: string;
  @Field(() => String, { nullable: true }) notWinner?: string;
  @Field(() => String, { nullable: true }) wheel?: string;
  @Field(() => IntRangeInput, { nullable: true }) year?: IntRangeInput;
  @Field(() => DecimalRangeInput, { nullable: true }) engineVolume?: DecimalRangeInput;
  @Field(() => String, { nullable: true, deprecationReason: 'Use `priceCurrency`' }) currency?: string;
  @Field(() => CurrencyGql, { nullable: true, description: 'The currency `price` is compared in (USD without it)' }) priceCurrency?: string;
  @Field(() => DecimalRangeInput, { nullable: true }) price?: DecimalRangeInput;
  @Field(() => String, { nullable: true }) transmission?: string;
  @Field(() => [String], { nullable: true }) fuel?: string[];
  @Field(() => String, { nullable: true }) maker?: string;
  @Field(() => String, { nullable: true }) model?: string;
  @Field(() => String, { nullable: true }) modelPrefix?: string;
  @Field(() => Int, { nullable: true, description: 'Seconds since 1970', deprecationReason: 'Use `startsFrom`' }) startTime?: number;
  @Field(() => Date, { nullable: true, description: 'Lots starting at this time or later' }) startsFrom?: Date;
  @Field(() => Int, { nullable: true }) trimPartnerA?: number;
  @Field(() => Int, { nullable: true }) trimPartnerB?: number;
  @Field(() => IntRangeInput, { nullable: true, description: 'Of the start time, in seconds since 1970', deprecationReason: 'Use `startTimeBetween`' }) timePeriod?: IntRangeInput;
  @Field(() => DateTimeRangeInput, { nullable: true, description: 'Lots starting within the range' }) startTimeBetween?: DateTimeRangeInput;
  @Field(() => Int, { nullable: true }) yardNumber?: number;
  @Field(() => [String], { nullable: true }) partnerAStatus?: string[];
  @Field(() => Boolean, { nullable: true }) registered?: boolean;
  @Field(() => Boolean, { nullable: true }) deposit?: boolean;
  @Field(() => Boolean, { nullable: true }) hasWinner?: boolean;
  @Field(() => Boolean, { nullable: true }) hasCallbacks?: boolean;
  @Field(() => Boolean, { nullable: true }) hasRequests?: boolean;
  @Field(() => Boolean, { nullable: true }) hasParticipants?: boolean;
  @Field(() => [String], { nullable: true }) hasParticipantsFrom?: string[];
  @Field(() => Boolean, { nullable: true }) isFinished?: boolean;
  @Field(() => Boolean, { nullable: true }) buyNow?: boolean;
  @Field(() => String, { nullable: true }) search?: string;
  @Field(() => [String], { nullable: true }) publisher?: string[];
  @Field(() => [String], { nullable: true }) directSalePublisher?: string[];
  @Field(() => String, { nullable: true }) organizer?: string;
  @Field(() => String, { nullable: true }) winnerAccountType?: string;
  @Field(() => Boolean, { nullable: true }) invoiceSent?: boolean;
  @Field(() => Boolean, { nullable: true }) invoicePaid?: boolean;
  @Field(() => String, { nullable: true }) tab?: string;
}

@InputType('UpdateLotInput', { description: 'PATCH /lots/{id}: an absent field stays as it is' })
export class UpdateLotInput {
  @Field(() => String, { nullable: true, description: 'The hidden reserve price; null drops it. Only before the first accepted bid' }) reservePrice?: string | null;
}

@InputType('CreateLotInput')
export class CreateLotInput {
  @Field(() => String, { description: 'eng or no_auction' }) type!: string;
  @Field(() => String) currency!: string;
  @Field(() => String) startPrice!: string;
  @Field(() => String) buyNowPrice!: string;
  @Field(() => String) deposit!: string;
  @Field(() => String) minStep!: string;
  @Field(() => String, { nullable: true }) maxStep?: string;
  @Field(() => GraphQLJSONObject) details!: Record<string, unknown>;
  @Field(() => String, { nullable: true }) b2bVehiclePrice?: string;
  @Field(() => String, { nullable: true }) b2cVehiclePrice?: string;
  @Field(() => String, { nullable: true }) b2cTotalPrice?: string;
  @Field(() => String, { nullable: true, description: 'A hidden reserve price (auctions only): above start_price, at most buy_now_price' }) reservePrice?: string;
  @Field(() => Int, { nullable: true, description: 'Seconds since the POSIX epoch' }) startTime?: number;
  @Field(() => Int, { nullable: true, description: 'Seconds' }) duration?: number;
}

