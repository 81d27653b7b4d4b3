import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

/** A lot in an account's watchlist. */
@Entity({ tableName: 'stars' })
export class Star {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'string', length: 56 })
  accountId!: string;

  @PrimaryKey({ type: 'bigint' })
  lotId!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}

/** A callback an account asked for about a lot. */
@Entity({ tableName: 'callbacks' })
export class Callback {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @Property({ type: 'bigint' })
  lotId!: string;

  @Property({ type: 'string', length: 56 })
  accountId!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
