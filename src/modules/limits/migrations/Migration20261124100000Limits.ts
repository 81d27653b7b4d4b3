import { Migration } from '../../../db/migration';

export class Migration20261124100000Limits extends Migration {
  override async up(): Promise<void> {
    // One row per limited subject (an address, an account), counting the hits of its current
    // window; shared by every instance on the database. Unlogged: a crash forgets at most one
    // window of counts, and each hit is one upsert that need not wait for a WAL flush.
    this.addSql(`
      create unlogged table rate_limit_counters (
        key text primary key,
        window_start timestamptz not null,
        hits integer not null
      )`);
    // The storage quota sums an uploader's documents at every upload.
    this.addSql(`create index documents_uploaded_by_idx on documents (uploaded_by)`);
  }
}
