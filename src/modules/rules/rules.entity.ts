import { Entity, OptionalProps, PrimaryKey, Property } from '@mikro-orm/core';
import type { AuctionRules } from './rules.model';

/** One version of a platform's auction rules; rows are written once and never changed. */
@Entity({ tableName: 'platform_rules' })
export class PlatformRules {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'string', length: 56 })
  platformId!: string;

  @PrimaryKey({ type: 'integer' })
  version!: number;

  @Property({ type: 'json' })
  rules!: AuctionRules;

  @Property({ type: 'string', length: 56 })
  createdBy!: string;

  @Property({ type: 'datetime', defaultRaw: 'now()' })
  createdAt: Date = new Date();
}
