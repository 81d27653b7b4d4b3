import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';

/** How many units of a currency one euro buys; conversions go through EUR. */
@Entity({ tableName: 'currency_rates' })
export class CurrencyRate {
  [OptionalProps]?: 'updatedAt';

  @PrimaryKey({ type: 'string', length: 3 })
  currency!: string;

  @Property({ type: 'decimal', precision: 30, scale: 12 })
  unitsPerEur!: string;

  @Property({ type: 'datetime' })
  asOf!: Date;

  @Property({ type: 'datetime', defaultRaw: 'now()', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}
