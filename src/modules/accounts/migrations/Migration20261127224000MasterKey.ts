import { Migration } from '../../../db/migration';

export class Migration20261127224000MasterKey extends Migration {
  override async up(): Promise<void> {
    // One row: the master account the database's accounts, signers and signed bid logs hang on,
    // recorded by the first start, so that an instance with another master key is refused.
    this.addSql(`
      create table master_key (
        only_row boolean primary key default true check (only_row),
        public_key varchar(56) not null,
        recorded_at timestamptz not null default now()
      )`);
  }
}
