import { Migration } from '../../../db/migration';

export class Migration20261122100000Jobs extends Migration {
  override async up(): Promise<void> {
    // One row per time-based notification sent (src/modules/trading/trading.notices.ts): a job that runs twice
    // (a retry, two instances, a rescheduled copy) finds its recipients already claimed.
    // `subject` tells apart several firings of one type on a lot (type 24: one per participant).
    this.addSql(`
      create table notification_firings (
        lot_id bigint not null references lots (id) on delete cascade,
        type smallint not null,
        subject varchar(56) not null default '',
        recipient varchar(56) not null,
        fired_at timestamptz not null default now(),
        primary key (lot_id, type, subject, recipient)
      )`);
  }
}
