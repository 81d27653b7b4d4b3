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

/** A dialog's key: its lot, the account it is seen from and the companion. */
export type DialogKey = Pick<Dialog, 'lotId' | 'accountId' | 'withId'>;

/** The id of a dialog names its tuple: `<lot>-<account>-<companion>`. */
export const dialogId = (d: DialogKey): string => `${d.lotId}-${d.accountId}-${d.withId}`;

/** A dialog's id split into its key (account ids hold no `-`: core/ids); null when it is no dialog id. */
export function dialogKeyOf(id: string): DialogKey | null {
  const parts = /^(\d{1,18})-(G[A-Z2-7]{55})-(G[A-Z2-7]{55})$/.exec(id);
  return parts ? { lotId: parts[1], accountId: parts[2], withId: parts[3] } : null;
}
