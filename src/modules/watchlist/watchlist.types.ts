import { Field, ID, InputType, ObjectType } from 'type-graphql';
import { NodeGql } from '../../graphql/types/node';
import { userErrorsField, type UserErrorGql } from '../../graphql/user-errors';
import { rfc3339 } from '../../core/time';
import type { Callback, Star } from './watchlist.entity';

@ObjectType('WatchlistEntry', { description: "A lot in an account's watchlist" })
export class WatchlistEntryGql {
  @Field(() => String) lotId!: string;
  @Field(() => String) accountId!: string;
  @Field(() => String, { description: 'RFC 3339', deprecationReason: 'Use `createdTime`' }) createdAt!: string;
  @Field(() => Date, { description: 'The time of `createdAt`' }) createdTime!: Date;
}

@ObjectType('Callback', { implements: NodeGql, description: 'A callback an account asked for about a lot' })
export class CallbackGql {
  @Field(() => String) id!: string;
  @Field(() => String) lotId!: string;
  @Field(() => String) accountId!: string;
  @Field(() => String, { description: 'RFC 3339', deprecationReason: 'Use `createdTime`' }) createdAt!: string;
  @Field(() => Date, { description: 'The time of `createdAt`' }) createdTime!: Date;
}

@InputType('AddCallbackRequestInput')
export class AddCallbackRequestInput {
  @Field(() => ID) lotId!: string;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('AddCallbackRequestPayload')
export class AddCallbackRequestPayloadGql {
  @Field(() => CallbackGql, { nullable: true, description: 'The callback asked for' }) callback!: CallbackGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}

@InputType('RemoveCallbackRequestInput')
export class RemoveCallbackRequestInput {
  @Field(() => ID) lotId!: string;
  @Field(() => String, { description: 'The account that asked for the callback' }) accountId!: string;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('RemoveCallbackRequestPayload')
export class RemoveCallbackRequestPayloadGql {
  @Field(() => ID, { nullable: true, description: 'The lot of the callback taken back' }) lotId!: string | null;
  @Field(() => String, { nullable: true, description: 'The account that had asked for it' }) accountId!: string | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}

export const watchlistEntryGql = (s: Star): WatchlistEntryGql => ({ lotId: s.lotId, accountId: s.accountId, createdAt: rfc3339(s.createdAt), createdTime: s.createdAt });

export const callbackGql = (c: Callback): CallbackGql => ({ id: c.id, lotId: c.lotId, accountId: c.accountId, createdAt: rfc3339(c.createdAt), createdTime: c.createdAt });

@InputType('AddStarInput')
export class AddStarInput {
  @Field(() => String, { description: 'The account whose watchlist takes the lot: the caller, or a user of a platform the caller is staff of' }) accountId!: string;
  @Field(() => ID) lotId!: string;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('AddStarPayload')
export class AddStarPayloadGql {
  @Field(() => WatchlistEntryGql, { nullable: true, description: 'The entry made' }) watchlistEntry!: WatchlistEntryGql | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}

@InputType('RemoveStarInput')
export class RemoveStarInput {
  @Field(() => String) accountId!: string;
  @Field(() => ID) lotId!: string;
  @Field(() => String, { nullable: true, description: 'Sent again by the same account within 24 hours with the same input, answers the first result' }) idempotencyKey?: string | null;
}

@ObjectType('RemoveStarPayload')
export class RemoveStarPayloadGql {
  @Field(() => ID, { nullable: true, description: 'The lot taken off the watchlist' }) lotId!: string | null;
  @Field(() => String, { nullable: true, description: 'The account whose watchlist it was taken off' }) accountId!: string | null;
  @userErrorsField() userErrors!: UserErrorGql[];
}
