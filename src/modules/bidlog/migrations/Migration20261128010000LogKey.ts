import { Migration } from '@mikro-orm/migrations';

export class Migration20261128010000LogKey extends Migration {
  override async up(): Promise<void> {
    // One row: the key the log signs with, recorded at start, so that an instance that generated
    // a key of its own on a shared database is refused (docs/bid-log.md, "The log's key"). A log
    // already signed keeps the key of its latest checkpoint.
    this.addSql(`
      create table tlog_key (
        only_row boolean primary key default true check (only_row),
        public_key varchar(56) not null,
        recorded_at timestamptz not null default now()
      )`);
    this.addSql(`insert into tlog_key (public_key) select signer from tlog_checkpoints order by size desc limit 1`);
  }
}
