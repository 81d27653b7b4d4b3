import { Migration } from '../../../db/migration';

export class Migration20261124120000BidKeys extends Migration {
  override async up(): Promise<void> {
    // A bid's lot and account are its participant's (the round writes them from the participant's
    // row), and the participant's own keys hold them: these two checks ran on every bid for
    // nothing, the account's one also locking the bidder's account row (FOR KEY SHARE). A lot's
    // removal still takes its bids along, through its participants (on delete cascade).
    this.addSql(`alter table bids drop constraint bids_lot_id_fkey`);
    this.addSql(`alter table bids drop constraint bids_account_id_fkey`);
    // A bid rewrites its participant's row (current bid, max bid) but none of its indexed columns:
    // with room left on the page the new version stays there (a HOT update) and no index of
    // participants is written. Pages written from now on keep that room.
    this.addSql(`alter table participants set (fillfactor = 80)`);
  }
}
