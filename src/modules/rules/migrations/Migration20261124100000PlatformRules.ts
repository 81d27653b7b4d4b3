import { Migration } from '../../../db/migration';

export class Migration20261124100000PlatformRules extends Migration {
  override async up(): Promise<void> {
    // Each change of a platform's rules is a new row: a lot names the version it was created
    // with, so its rules never change under it, and a version, once written, can be cached forever.
    this.addSql(`
      create table platform_rules (
        platform_id varchar(56) not null references accounts (id),
        version integer not null check (version > 0),
        rules jsonb not null,
        created_by varchar(56) not null,
        created_at timestamptz not null default now(),
        primary key (platform_id, version)
      )`);
    // Null for a lot created while its platform had no rules: it follows the contract alone.
    this.addSql('alter table lots add column rules_version integer');
  }
}
