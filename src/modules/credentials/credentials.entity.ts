import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

@Entity({ tableName: 'credentials' })
export class Credential {
  [OptionalProps]?: 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'string', length: 56 })
  accountId!: string;

  /** scrypt, in the self-describing form of `core/passwords.ts`; never returned or logged. */
  @Property({ type: 'text', hidden: true })
  passwordHash!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
