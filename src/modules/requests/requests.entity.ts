import { BigIntType, Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { LotDraft } from '../lots';

export enum RequestState {
  Pending = 1,
  Canceled = 2,
  Approved = 3,
  Rejected = 4,
  PermanentlyRejected = 5,
}
export const REQUEST_STATE_NAMES: Record<RequestState, string> = {
  [RequestState.Pending]: 'pending',
  [RequestState.Canceled]: 'canceled',
  [RequestState.Approved]: 'approved',
  [RequestState.Rejected]: 'rejected',
  [RequestState.PermanentlyRejected]: 'permanently_rejected',
};

/** A user's lot-creation request, reviewed by its platform. */
@Entity({ tableName: 'create_lot_requests' })
export class CreateLotRequest {
  [OptionalProps]?: 'requestState' | 'lotId' | 'rejectReason' | 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'string', length: 56 })
  requestor!: string;

  /** The platform that must review it. */
  @Property({ type: 'string', length: 56 })
  platformId!: string;

  @Property({ type: 'smallint' })
  requestState: RequestState = RequestState.Pending;

  @Property({ type: 'json' })
  body!: LotDraft;

  /** Lowercase hex SHA-256 of the RFC 8785 canonical JSON of `body`. */
  @Property({ type: 'string', length: 64 })
  hash!: string;

  /** The lot created on approval; a string like every bigint id (the union type would map to a JS bigint). */
  @Property({ type: new BigIntType('string'), nullable: true })
  lotId: string | null = null;

  @Property({ type: 'text' })
  rejectReason = '';

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
