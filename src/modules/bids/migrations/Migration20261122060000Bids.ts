import { Migration } from '../../../db/migration';

export class Migration20261122060000Bids extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table bids (
        id bigserial primary key,
        lot_id bigint not null references lots (id) on delete cascade,
        participant_id bigint not null references participants (id) on delete cascade,
        account_id varchar(56) not null references accounts (id),
        amount numeric(20, 2) not null,
        placed_by_proxy boolean not null default false,
        created_at timestamptz not null default now()
      )`);
    this.addSql(`create index bids_lot_idx on bids (lot_id, id)`);
    this.addSql(`alter table participants add column max_bid_at timestamptz null`);
    // Replay records only need to outlive the signature window, not a crash: unlogged, their
    // inserts do not wait for a WAL flush on every signed write.
    this.addSql(`alter table seen_signatures set unlogged`);
  }
}
