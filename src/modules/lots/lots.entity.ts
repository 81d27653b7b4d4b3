import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import { MoneyType } from '../../db/money.type';
import { Money } from '../../core/money';

export enum LotType {
  NoAuction = 0,
  Eng = 1,
  PartnerA = 2,
  PartnerB = 3,
}
export const LOT_TYPE_NAMES: Record<LotType, string> = {
  [LotType.NoAuction]: 'no_auction',
  [LotType.Eng]: 'eng',
  [LotType.PartnerA]: 'partnerA',
  [LotType.PartnerB]: 'partnerB',
};

export enum LotState {
  Pending = 1,
  Sold = 2,
  Finished = 3,
}
export const LOT_STATE_NAMES: Record<LotState, string> = {
  [LotState.Pending]: 'pending',
  [LotState.Sold]: 'sold',
  [LotState.Finished]: 'finished',
};

@Entity({ tableName: 'lots' })
export class Lot {
  [OptionalProps]?:
    | 'lotState' | 'highestBid' | 'b2bVehiclePrice' | 'b2cVehiclePrice' | 'b2cTotalPrice' | 'winnerId'
    | 'country' | 'city' | 'year' | 'maker' | 'model' | 'vin' | 'wheel' | 'fuelType' | 'transmission'
    | 'registered' | 'engineVolume' | 'sourceLotId' | 'yardNumber' | 'saleStatus' | 'rulesVersion' | 'extensions' | 'extendedSeconds' | 'reservePrice' | 'lapsedAt' | 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'smallint' })
  lotType!: LotType;

  @Property({ type: 'smallint' })
  lotState: LotState = LotState.Pending;

  @Property({ type: 'string', length: 3 })
  currency!: string;

  @Property({ type: MoneyType })
  startPrice!: Money;

  @Property({ type: MoneyType })
  buyNowPrice!: Money;

  @Property({ type: MoneyType })
  deposit!: Money;

  @Property({ type: MoneyType })
  minStep!: Money;

  @Property({ type: MoneyType })
  maxStep!: Money;

  @Property({ type: MoneyType, nullable: true })
  highestBid: Money | null = null;

  @Property({ type: MoneyType, nullable: true })
  b2bVehiclePrice: Money | null = null;

  @Property({ type: MoneyType, nullable: true })
  b2cVehiclePrice: Money | null = null;

  @Property({ type: MoneyType, nullable: true })
  b2cTotalPrice: Money | null = null;

  @Property({ type: 'datetime' })
  startTime!: Date;

  /** Seconds; the lot ends at startTime + duration. */
  @Property({ type: 'integer' })
  duration!: number;

  @Property({ type: 'datetime' })
  endTime!: Date;

  @Property({ type: 'string', length: 56 })
  organizerId!: string;

  @Property({ type: 'string', length: 56 })
  publisherId!: string;

  /** Account id of the winning participant. */
  @Property({ type: 'string', length: 56, nullable: true })
  winnerId: string | null = null;

  @Property({ type: 'json' })
  details!: Record<string, unknown>;

  // Columns copied out of details for filtering and sorting.
  @Property({ type: 'string', length: 3, nullable: true }) country: string | null = null;
  @Property({ type: 'string', length: 100, nullable: true }) city: string | null = null;
  @Property({ type: 'smallint', nullable: true }) year: number | null = null;
  @Property({ type: 'string', length: 100, nullable: true }) maker: string | null = null;
  @Property({ type: 'string', length: 100, nullable: true }) model: string | null = null;
  @Property({ type: 'string', length: 32, nullable: true }) vin: string | null = null;
  @Property({ type: 'string', length: 5, nullable: true }) wheel: string | null = null;
  @Property({ type: 'string', length: 20, nullable: true }) fuelType: string | null = null;
  @Property({ type: 'string', length: 30, nullable: true }) transmission: string | null = null;
  @Property({ type: 'boolean', nullable: true }) registered: boolean | null = null;
  @Property({ type: 'double', nullable: true }) engineVolume: number | null = null;
  @Property({ type: 'bigint', nullable: true }) sourceLotId: string | null = null;
  @Property({ type: 'integer', nullable: true }) yardNumber: number | null = null;
  @Property({ type: 'string', length: 20, nullable: true }) saleStatus: string | null = null;

  /** The version of its publisher's rules the lot was created with; null when the platform had none. */
  @Property({ type: 'integer', nullable: true })
  rulesVersion: number | null = null;

  /** How many times soft close moved the lot's end (one lot_extended notice each). */
  @Property({ type: 'integer', default: 0 })
  extensions = 0;

  /** The seconds soft close added to the lot's end in all, held to its rules' maxExtensionSeconds. */
  @Property({ type: 'integer', default: 0 })
  extendedSeconds = 0;

  /** The hidden reserve, in the lot's currency: a winner bidding less needs the manager's explicit consent (docs/auction-rules.md). */
  @Property({ type: MoneyType, nullable: true })
  reservePrice: Money | null = null;

  /** When the lot finished because its reserve was not met and nobody chose a winner in time. */
  @Property({ type: 'datetime', nullable: true })
  lapsedAt: Date | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

/** The columns copied out of `details` for filters and sorts: no page shows them (`details` does). */
type FilterColumns = 'country' | 'city' | 'year' | 'maker' | 'model' | 'vin' | 'wheel' | 'fuelType' | 'transmission' | 'registered' | 'engineVolume' | 'sourceLotId' | 'yardNumber' | 'saleStatus';

/** A lot as a page of lots shows it: every column but the filters' copies of its details. */
export type ListedLot = Omit<Lot, FilterColumns>;

/**
 * The highest bid as both edges show it: 0.00 until the first accepted bid. The
 * column stays null until then, which is how the first-bid rule tells the first bid.
 */
export function shownHighestBid(lot: { highestBid: Money | null }): Money {
  return lot.highestBid ?? new Money(0);
}
