import { Migration } from '../../../db/migration';

/**
 * A bid round adds to its bidders' rows of bid_activity. With the count in the key's index
 * (`include (bids)`), every such update wrote a new index entry as well as a new row version; out of
 * the index, and with room left on each page, the update stays on its page (HOT) and writes no index.
 * The statistics read the count from the row.
 */
export class Migration20261128220000BidActivityHot extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table bid_activity drop constraint bid_activity_pkey`);
    this.addSql(`alter table bid_activity add primary key (platform_id, hour, account_id)`);
    this.addSql(`alter table bid_activity set (fillfactor = 50)`);
  }
}
