import { GraphQLJSONObject } from 'graphql-scalars';
import { Field, ID, InputType, Int, ObjectType } from 'type-graphql';
import { domainEnum } from '../../graphql/types/enums';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';
import { REQUEST_STATE_NAMES, type CreateLotRequest } from './requests.entity';
import { requestView, type RequestPricing } from './requests.view';
import { NodeGql } from '../../graphql/types/node';
import { maybeMoney, money, MoneyGql } from '../../graphql/types/money';

export const RequestStateGql = domainEnum('RequestState', REQUEST_STATE_NAMES, 'A create-lot request: PENDING (awaiting review), CANCELED (by its requestor), APPROVED, REJECTED (may be filed again), PERMANENTLY_REJECTED');

@ObjectType('CreateLotRequestPrices', { description: "A create-lot request's amounts; each converts with `in(currency:)`" })
export class CreateLotRequestPricesGql {
  @Field(() => MoneyGql) start!: MoneyGql;
  @Field(() => MoneyGql) buyNow!: MoneyGql;
  @Field(() => MoneyGql) deposit!: MoneyGql;
  @Field(() => MoneyGql) minStep!: MoneyGql;
  @Field(() => MoneyGql, { nullable: true }) maxStep!: MoneyGql | null;
  @Field(() => MoneyGql, { nullable: true }) b2bVehicle!: MoneyGql | null;
  @Field(() => MoneyGql, { nullable: true }) b2cVehicle!: MoneyGql | null;
  @Field(() => MoneyGql, { nullable: true }) b2cTotal!: MoneyGql | null;
  @Field(() => MoneyGql, { nullable: true, description: 'The hidden reserve price the body gave; null: none' }) reserve!: MoneyGql | null;
}

@ObjectType('CreateLotRequest', { implements: NodeGql, description: 'A create-lot (reviewable) request: a user\'s lot body awaiting review by its platform' })
export class CreateLotRequestGql {
  @Field(() => ID) id!: string;
  @Field(() => Int, { description: '1 pending, 2 canceled, 3 approved, 4 rejected, 5 permanently_rejected' }) requestState!: number;
  @Field(() => String) requestStateStr!: string;
  @Field(() => String, { description: 'Account id of the user who filed it' }) requestor!: string;
  @Field(() => String, { description: 'Id of the platform that must review it' }) reviewer!: string;
  @Field(() => String) platformId!: string;
  @Field(() => String, { description: 'The organizer of the lot it creates: the requestor' }) organizerId!: string;
  @Field(() => ID, { nullable: true, description: 'The lot created on approval' }) lotId!: string | null;
  @Field(() => Int, { description: '0 no_auction, 1 eng' }) lotType!: number;
  @Field(() => String) lotTypeStr!: string;
  @Field(() => String, { deprecationReason: 'Use `prices`: each Money has its `currency`' }) currency!: string;
  @Field(() => String, { deprecationReason: 'Use `prices`' }) startPrice!: string;
  @Field(() => String, { deprecationReason: 'Use `prices`' }) buyNowPrice!: string;
  @Field(() => Boolean) buyNowSupport!: boolean;
  @Field(() => String, { deprecationReason: 'Use `prices`' }) deposit!: string;
  @Field(() => String, { deprecationReason: 'Use `prices`' }) minStep!: string;
  @Field(() => String, { nullable: true, deprecationReason: 'Use `prices`' }) maxStep!: string | null;
  @Field(() => String, { nullable: true, deprecationReason: 'Use `prices`' }) b2bVehiclePrice!: string | null;
  @Field(() => String, { nullable: true, deprecationReason: 'Use `prices`' }) b2cVehiclePrice!: string | null;
  @Field(() => String, { nullable: true, deprecationReason: 'Use `prices`' }) b2cTotalPrice!: string | null;
  @Field(() => String, { nullable: true, description: 'The hidden reserve price the body gave; null: none', deprecationReason: 'Use `prices`' }) reservePrice?: string | null;
  @Field(() => CreateLotRequestPricesGql, { description: 'The amounts of the body, as Money in the currency the request is shown in' }) prices!: CreateLotRequestPricesGql;
  @Field(() => String, { nullable: true, description: 'RFC 3339; null when the body gave none', deprecationReason: 'Use `startsAt`' }) startTime!: string | null;
  @Field(() => Date, { nullable: true, description: 'When the lot is to start; null when the body gave none' }) startsAt!: Date | null;
  @Field(() => Int, { nullable: true, description: 'Seconds; null when the body gave none' }) duration!: number | null;
  @Field(() => GraphQLJSONObject) details!: Record<string, unknown>;
  @Field(() => String, { description: 'Lowercase hex SHA-256 of the RFC 8785 canonical JSON of the stored body; quoted by reviewRequest' }) hash!: string;
  @Field(() => String, { description: 'Empty when none' }) rejectReason!: string;
  @Field(() => String, { description: 'RFC 3339', deprecationReason: 'Use `createdTime`' }) createdAt!: string;
  @Field(() => Date, { description: 'The time of `createdAt`' }) createdTime!: Date;
  @Field(() => String, { description: 'RFC 3339', deprecationReason: 'Use `updatedTime`' }) updatedAt!: string;
  @Field(() => Date, { description: 'The time of `updatedAt`' }) updatedTime!: Date;
}

@ObjectType('CreateLotRequestPage', { description: 'One number/size page of create-lot requests' })
export class CreateLotRequestPageGql {
  @Field(() => [CreateLotRequestGql]) items!: CreateLotRequestGql[];
  @Field(() => Int, { description: 'The count of every match' }) totalItems!: number;
  @Field(() => Int, { description: 'The page number, from 0' }) page!: number;
  @Field(() => Int) size!: number;
}

export function requestGql(request: CreateLotRequest, pricing?: RequestPricing): CreateLotRequestGql {
  const view = requestView(request, pricing);
  const c = view.currency;
  const prices = {
    start: money(view.startPrice, c),
    buyNow: money(view.buyNowPrice, c),
    deposit: money(view.deposit, c),
    minStep: money(view.minStep, c),
    maxStep: maybeMoney(view.maxStep, c),
    b2bVehicle: maybeMoney(view.b2bVehiclePrice, c),
    b2cVehicle: maybeMoney(view.b2cVehiclePrice, c),
    b2cTotal: maybeMoney(view.b2cTotalPrice, c),
    reserve: maybeMoney(view.reservePrice ?? null, c),
  };
  const startsAt = view.startTime === null ? null : new Date(view.startTime);
  return { id: request.id, ...view, prices, startsAt, createdTime: request.createdAt, updatedTime: request.updatedAt };
}

@InputType('CancelCreateLotRequestInput')
export class CancelCreateLotRequestInput {
  @Field(() => ID) id!: string;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('CancelCreateLotRequestPayload')
export class CancelCreateLotRequestPayloadGql {
  @Field(() => ID, { nullable: true, description: 'The request canceled' }) requestId!: string | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}

@InputType('ReviewCreateLotRequestInput')
export class ReviewCreateLotRequestInput {
  @Field(() => ID) id!: string;
  @Field(() => String, { description: 'The hash of the version reviewed' }) hash!: string;
  @Field(() => String, { description: 'approved, rejected or permanently_rejected' }) state!: string;
  @Field(() => String, { nullable: true }) rejectReason?: string | null;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('ReviewCreateLotRequestPayload')
export class ReviewCreateLotRequestPayloadGql {
  @Field(() => CreateLotRequestGql, { nullable: true, description: 'The request reviewed' }) createLotRequest!: CreateLotRequestGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}
