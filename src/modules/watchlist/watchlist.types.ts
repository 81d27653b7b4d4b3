import { Field, ObjectType } from 'type-graphql';
import { rfc3339 } from '../../core/time';
import type { Callback, Star } from './watchlist.entity';

@ObjectType('WatchlistEntry', { description: "A lot in an account's watchlist" })
export class WatchlistEntryGql {
  @Field(() => String) lotId!: string;
  @Field(() => String) accountId!: string;
  @Field(() => String, { description: 'RFC 3339' }) createdAt!: string;
}

@ObjectType('Callback', { description: 'A callback an account asked for about a lot' })
export class CallbackGql {
  @Field(() => String) id!: string;
  @Field(() => String) lotId!: string;
  @Field(() => String) accountId!: string;
  @Field(() => String, { description: 'RFC 3339' }) createdAt!: string;
}

export const watchlistEntryGql = (s: Star): WatchlistEntryGql => ({ lotId: s.lotId, accountId: s.accountId, createdAt: rfc3339(s.createdAt) });

export const callbackGql = (c: Callback): CallbackGql => ({ id: c.id, lotId: c.lotId, accountId: c.accountId, createdAt: rfc3339(c.createdAt) });
