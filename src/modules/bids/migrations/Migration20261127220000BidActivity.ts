import { Migration } from '../../../db/migration';

/**
 * A platform's bids per hour and bidder, kept by the bid round's own statement (bids.sql.ts
 * writeRound): the platform statistics count bids and distinct bidders per hour, day, week or
 * month from these rows. Counting them from the bids themselves read every bid of the range
 * through its lot (bench/platform-stats.mjs: a million bids). A row is a bidder's, so the only
 * rounds that wait on one another's row are the same bidder's on two lots of a platform in the
 * same hour. The key holds the count too, so that a range is read from the index alone.
 */
export class Migration20261127220000BidActivity extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table bid_activity (
        platform_id varchar(56) not null,
        hour timestamptz not null,
        account_id varchar(56) not null,
        bids integer not null check (bids > 0),
        primary key (platform_id, hour, account_id) include (bids)
      )`);
    this.addSql(`
      insert into bid_activity (platform_id, hour, account_id, bids)
      select l.publisher_id, date_trunc('hour', b.created_at, 'UTC'), b.account_id, count(*)
        from bids b join lots l on l.id = b.lot_id
       group by 1, 2, 3`);
  }
}
