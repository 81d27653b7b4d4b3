import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { Money } from '../../core/money';
import { MoneyType } from '../../db/money.type';

/** Participant state codes as both edges show them (docs/rest.md). */
export enum ParticipantState {
  Pending = 0,
  Rejected = 1,
  Winner = 2,
  BuyNowWinner = 3,
  DepositPending = 4,
  Lost = 5,
  DealCanceled = 6,
}
export const PARTICIPANT_STATE_NAMES: Record<ParticipantState, string> = {
  [ParticipantState.Pending]: 'pending',
  [ParticipantState.Rejected]: 'rejected',
  [ParticipantState.Winner]: 'winner',
  [ParticipantState.BuyNowWinner]: 'buy_now_winner',
  [ParticipantState.DepositPending]: 'deposit_pending',
  [ParticipantState.Lost]: 'lost',
  [ParticipantState.DealCanceled]: 'deal_canceled',
};

export enum DepositState {
  Pending = 1,
  Paid = 2,
  Returned = 3,
  FeeCharged = 4,
}
export const DEPOSIT_STATE_NAMES: Record<DepositState, string> = {
  [DepositState.Pending]: 'pending',
  [DepositState.Paid]: 'paid',
  [DepositState.Returned]: 'returned',
  [DepositState.FeeCharged]: 'fee_charged',
};

@Entity({ tableName: 'participants' })
export class Participant {
  [OptionalProps]?: 'requestedBuyNow' | 'currentBid' | 'maxBid' | 'maxBidAt' | 'maxBidDigest' | 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'bigint' })
  lotId!: string;

  @Property({ type: 'string', length: 56 })
  accountId!: string;

  @Property({ type: 'smallint' })
  state!: ParticipantState;

  @Property({ type: 'boolean' })
  requestedBuyNow = false;

  @Property({ type: MoneyType, nullable: true })
  currentBid: Money | null = null;

  @Property({ type: MoneyType, nullable: true })
  maxBid: Money | null = null;

  /** When the max bid was set: of two equal max bids, the earlier leads. */
  @Property({ type: 'datetime', nullable: true })
  maxBidAt: Date | null = null;

  /** Hex digest of the signed request that set the max bid: the bid log cites it for the proxy's raises. */
  @Property({ type: 'string', length: 64, nullable: true })
  maxBidDigest: string | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

@Entity({ tableName: 'deposits' })
export class Deposit {
  [OptionalProps]?: 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'bigint' })
  participantId!: string;

  @Property({ type: 'bigint' })
  lotId!: string;

  @Property({ type: 'string', length: 56 })
  accountId!: string;

  @Property({ type: MoneyType })
  amount!: Money;

  @Property({ type: 'string', length: 3 })
  currency!: string;

  @Property({ type: 'smallint' })
  state!: DepositState;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

@Entity({ tableName: 'winner_details' })
export class WinnerDetails {
  [OptionalProps]?:
    | 'invoiceId' | 'invoicePaid' | 'dealCanceled' | 'containerId' | 'serviceLink' | 'feeAmount'
    | 'transportationFee' | 'feeCurrency' | 'updatedAt';

  @PrimaryKey({ type: 'bigint' })
  lotId!: string;

  @Property({ type: 'string', length: 100, nullable: true }) invoiceId: string | null = null;
  @Property({ type: 'boolean', nullable: true }) invoicePaid: boolean | null = null;
  @Property({ type: 'boolean', nullable: true }) dealCanceled: boolean | null = null;
  @Property({ type: 'string', length: 100, nullable: true }) containerId: string | null = null;
  @Property({ type: 'text', nullable: true }) serviceLink: string | null = null;
  @Property({ type: MoneyType, nullable: true }) feeAmount: Money | null = null;
  @Property({ type: MoneyType, nullable: true }) transportationFee: Money | null = null;
  @Property({ type: 'string', length: 3, nullable: true }) feeCurrency: string | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

/** A `winner_details` row as a statement outside the ORM answers it (the columns read so far). */
export interface WinnerDetailsColumns {
  lot_id: string;
  invoice_paid: boolean | null;
}
