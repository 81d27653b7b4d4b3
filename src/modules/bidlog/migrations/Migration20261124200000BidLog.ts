import { Migration } from '../../../db/migration';

export class Migration20261124200000BidLog extends Migration {
  override async up(): Promise<void> {
    // One row per accepted bid, written by the bid's own statement; the bid's other fields are
    // read from bids, so a change to either breaks the hash. No foreign key: the round's single
    // statement writes both rows, and the check would cost the hot path a lookup per bid.
    this.addSql(`
      create table bid_log (
        bid_id bigint primary key,
        lot_id bigint not null,
        seq integer not null,
        request_digest char(64) null,
        bidder_salt char(32) not null,
        hash char(64) not null,
        constraint bid_log_lot_seq unique (lot_id, seq)
      )`);
    this.addSql(`
      create table bid_log_heads (
        lot_id bigint primary key references lots (id) on delete cascade,
        entries integer not null,
        head char(64) not null,
        highest_bid numeric(20, 2) null,
        winner_id varchar(56) null,
        winner_seq integer null,
        winner_salt char(32) null,
        lot_state varchar(16) not null,
        signed_at varchar(32) not null,
        signer varchar(56) not null,
        signature text not null
      )`);
    // The digest of the request that set a participant's max bid: the proxy's raises cite it.
    this.addSql(`alter table participants add column max_bid_digest char(64) null`);
  }
}
