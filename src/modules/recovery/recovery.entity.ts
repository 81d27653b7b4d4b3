import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

/** The one open password recovery of an account: a new request replaces the previous one. */
@Entity({ tableName: 'recovery_requests' })
export class RecoveryRequest {
  [OptionalProps]?: 'createdAt' | 'usedAt';

  @PrimaryKey({ type: 'string', length: 56 })
  accountId!: string;

  /** SHA-256 of the token (`core/tokens.ts`); the token itself is only in the message sent. */
  @Property({ type: 'blob' })
  tokenHash!: Buffer;

  @Property({ type: 'datetime' })
  expiresAt!: Date;

  @Property({ type: 'datetime', nullable: true })
  usedAt: Date | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
