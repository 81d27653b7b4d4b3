import { Migration } from '../../../db/migration';

/**
 * The platform statistics read a platform's lots created in a range, and its sold lots ended in
 * one: without these the statement read all lots (no index leads with the publisher). The sold
 * lots' index is partial, so that a bid, which rewrites a pending lot's row and every index of
 * it (price_eur is indexed, so the update is never HOT), adds no entry to it.
 */
export class Migration20261127220000PlatformStatsIndexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index lots_publisher_created_idx on lots (publisher_id, created_at)`);
    this.addSql(`create index lots_publisher_sold_idx on lots (publisher_id, end_time) where lot_state = 2`);
  }
}
