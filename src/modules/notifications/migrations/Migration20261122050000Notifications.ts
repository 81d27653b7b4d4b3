import { Migration } from '../../../db/migration';

export class Migration20261122050000Notifications extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table notifications (
        id bigserial primary key,
        recipient varchar(56) not null references accounts (id) on delete cascade,
        type smallint not null check (type between 1 and 29),
        meta jsonb not null default '{}',
        read_at timestamptz null,
        created_at timestamptz not null default now()
      )`);
    // The unread rows of one recipient, newest first: GET /notifications reads a page of them in
    // order, GET /counts groups them by type; read rows leave the index.
    this.addSql(`create index notifications_unread_idx on notifications (recipient, created_at desc, id desc) where read_at is null`);
  }
}
