import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

export type OutboxChannel = 'email' | 'sms';

/** An email or SMS message kept instead of being sent (no SMTP configured, and every SMS). */
@Entity({ tableName: 'outbox_messages' })
export class OutboxMessage {
  [OptionalProps]?: 'createdAt' | 'accountId' | 'platformId';

  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'string', length: 5 })
  channel!: OutboxChannel;

  @Property({ type: 'text' })
  recipient!: string;

  @Property({ type: 'string', length: 56, nullable: true })
  accountId: string | null = null;

  @Property({ type: 'string', length: 56, nullable: true })
  platformId: string | null = null;

  @Property({ type: 'text' })
  subject!: string;

  @Property({ type: 'text' })
  body!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
