import { Migration } from '../../../db/migration';

export class Migration20261125120000SecondChanceOffers extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table second_chance_offers (
        id bigserial primary key,
        lot_id bigint not null references lots (id) on delete cascade,
        participant_id bigint not null references participants (id) on delete cascade,
        account_id varchar(56) not null,
        amount numeric(20, 2) not null,
        currency varchar(3) not null,
        state varchar(8) not null default 'open' check (state in ('open', 'accepted', 'declined', 'expired')),
        expires_at timestamptz not null,
        offered_by varchar(56) not null,
        answered_at timestamptz null,
        created_at timestamptz not null default now()
      )`);
    // At most one open offer per lot, whatever races past the service's check under the lot's lock.
    this.addSql(`create unique index second_chance_offers_open_idx on second_chance_offers (lot_id) where state = 'open'`);
    this.addSql(`create index second_chance_offers_lot_idx on second_chance_offers (lot_id, id)`);
    // The expiry job reads the open offers by their expiry.
    this.addSql(`create index second_chance_offers_expiry_idx on second_chance_offers (expires_at) where state = 'open'`);
    // Types 34 second_chance_offered and 35 second_chance_answered (32, 33 are reserved for other rules).
    this.addSql(`alter table notifications drop constraint notifications_type_check`);
    this.addSql(`alter table notifications add constraint notifications_type_check check (type between 1 and 35)`);
  }
}
