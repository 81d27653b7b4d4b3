import { Migration } from '../../../db/migration';

export class Migration20261128010000TlogSequencer extends Migration {
  override async up(): Promise<void> {
    // Leaves are inserted by their bid's transaction without an index (no lock shared between
    // lots) and numbered by the sequencer after they committed (docs/bid-log.md, "Concurrency"):
    // `seq` orders them until then; an index, once given, is unique.
    this.addSql(`alter table tlog_leaves add column seq bigint generated always as identity`);
    this.addSql(`alter table tlog_leaves drop constraint tlog_leaves_pkey`);
    this.addSql(`alter table tlog_leaves alter column idx drop not null`);
    this.addSql(`alter table tlog_leaves add primary key (seq)`);
    this.addSql(`create unique index tlog_leaves_idx on tlog_leaves (idx)`);
    this.addSql(`create index tlog_leaves_unsequenced on tlog_leaves (seq) where idx is null`);
  }
}
