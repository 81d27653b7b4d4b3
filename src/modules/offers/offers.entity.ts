import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { Money } from '../../core/money';
import { MoneyType } from '../../db/money.type';

/** Open until the bidder answers or it expires; the other three are final. */
export const OFFER_STATES = ['open', 'accepted', 'declined', 'expired'] as const;
export type OfferState = (typeof OFFER_STATES)[number];

/** A lot offered once more, after its winner's deal was canceled or its reserve lapsed, to one bidder at that bidder's highest bid (docs/auction-rules.md). */
@Entity({ tableName: 'second_chance_offers' })
export class SecondChanceOffer {
  [OptionalProps]?: 'state' | 'answeredAt' | 'createdAt';

  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'bigint' })
  lotId!: string;

  @Property({ type: 'bigint' })
  participantId!: string;

  /** The bidder offered, the only one who may answer. */
  @Property({ type: 'string', length: 56 })
  accountId!: string;

  @Property({ type: MoneyType })
  amount!: Money;

  @Property({ type: 'string', length: 3 })
  currency!: string;

  @Property({ type: 'string', length: 8 })
  state: OfferState = 'open';

  @Property({ type: 'datetime' })
  expiresAt!: Date;

  /** The organizer or staff member who made the offer. */
  @Property({ type: 'string', length: 56 })
  offeredBy!: string;

  @Property({ type: 'datetime', nullable: true })
  answeredAt: Date | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
