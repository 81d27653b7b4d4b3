import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { Money } from '../../core/money';
import { MoneyType } from '../../db/money.type';

/** An accepted bid; a lot's bids are strictly increasing in amount and in id. */
@Entity({ tableName: 'bids' })
export class Bid {
  [OptionalProps]?: 'placedByProxy' | 'createdAt';

  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'bigint' })
  lotId!: string;

  @Property({ type: 'bigint' })
  participantId!: string;

  @Property({ type: 'string', length: 56 })
  accountId!: string;

  @Property({ type: MoneyType })
  amount!: Money;

  /** Placed automatically for a max bid. */
  @Property({ type: 'boolean' })
  placedByProxy = false;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}

/** A bid's fields without the entity: what the bid path writes through the driver and answers. */
export type BidRow = Pick<Bid, 'id' | 'lotId' | 'participantId' | 'accountId' | 'amount' | 'placedByProxy' | 'createdAt'>;
