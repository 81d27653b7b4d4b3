import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

export type VerificationChannel = 'email' | 'phone';

@Entity({ tableName: 'verification_tokens' })
export class VerificationToken {
  [OptionalProps]?: 'createdAt' | 'usedAt' | 'resend';

  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'string', length: 56 })
  accountId!: string;

  @Property({ type: 'string', length: 5 })
  channel!: VerificationChannel;

  @Property({ type: 'blob' })
  tokenHash!: Buffer;

  /** Sent by a resend request (only these count towards the resend limit). */
  @Property({ type: 'boolean' })
  resend = false;

  @Property({ type: 'datetime' })
  expiresAt!: Date;

  @Property({ type: 'datetime', nullable: true })
  usedAt: Date | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
