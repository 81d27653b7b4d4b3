import { Migration } from '../../../db/migration';

export class Migration20261128013000TlogKeys extends Migration {
  override async up(): Promise<void> {
    // The log's keys, oldest first (docs/bid-log.md, "The log's key"): the one without `until`
    // signs now. Instances sharing the database must hold it; a rotation closes its period.
    this.addSql(`
      create table tlog_keys (
        public_key varchar(56) primary key,
        since timestamptz not null default now(),
        until timestamptz null
      )`);
    this.addSql(`create unique index tlog_keys_current on tlog_keys ((true)) where until is null`);
    // A log that already signed checkpoints knows its keys from them.
    this.addSql(`
      insert into tlog_keys (public_key, since, until)
      select signer, since, lead(since) over (order by since) from (select signer, min(created_at) as since from tlog_checkpoints group by signer) k`);
  }
}
