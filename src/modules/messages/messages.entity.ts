import { BigIntType, Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

/**
 * A message between two accounts about a lot; unread while `readAt` is null.
 * The table also keeps a generated full-text `search` column, which the entity does not map.
 */
@Entity({ tableName: 'messages' })
export class Message {
  [OptionalProps]?: 'refMessageId' | 'readAt' | 'createdAt';

  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'bigint' })
  lotId!: string;

  @Property({ type: 'string', length: 56 })
  sender!: string;

  @Property({ type: 'string', length: 56 })
  receiver!: string;

  @Property({ type: new BigIntType('string'), nullable: true })
  refMessageId: string | null = null;

  @Property({ type: 'text' })
  text!: string;

  @Property({ type: 'datetime', nullable: true })
  readAt: Date | null = null;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}

/** A conversation seen from one of its accounts: the tuple (account, companion, lot). */
export interface Dialog {
  lotId: string;
  accountId: string;
  withId: string;
  /** Messages from the companion to the account that are still unread. */
  unread: number;
  lastMessageAt: Date;
}
