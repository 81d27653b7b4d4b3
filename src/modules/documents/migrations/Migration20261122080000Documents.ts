import { Migration } from '../../../db/migration';

export class Migration20261122080000Documents extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table documents (
        id varchar(64) primary key,
        file_name varchar(255) not null,
        content_type varchar(40) not null,
        size integer not null check (size >= 0),
        document_type varchar(10) not null check (document_type in ('public', 'private')),
        owners text[] null,
        uploaded_by varchar(56) not null,
        created_at timestamptz not null default now(),
        expires_at timestamptz null,
        check (document_type = 'public' or cardinality(owners) > 0)
      )`);
    // The purge job reads the expired rows only.
    this.addSql(`create index documents_expires_at_idx on documents (expires_at) where expires_at is not null`);
  }
}
