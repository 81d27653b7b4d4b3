import { Migration } from '../../../db/migration';

export class Migration20261124210000SavedSearches extends Migration {
  override async up(): Promise<void> {
    // The filters a new lot is matched on live in typed columns (null: not filtered), so that one
    // statement matches a lot against every saved search; `filters` keeps them as the caller gave them.
    this.addSql(`
      create table saved_searches (
        id bigserial primary key,
        account_id varchar(56) not null references accounts (id) on delete cascade,
        filters jsonb not null,
        currency varchar(3) not null,
        country varchar(3) null,
        city varchar(100) null,
        maker varchar(100) null,
        model varchar(100) null,
        model_prefix varchar(100) null,
        lot_types smallint[] null,
        fuels text[] null,
        year_min integer null,
        year_max integer null,
        price_min numeric(20, 2) null,
        price_max numeric(20, 2) null,
        buy_now boolean null,
        last_emailed_at timestamptz null,
        created_at timestamptz not null default now()
      )`);
    // Type 31, saved_search_matched, is ours beside the contract's 29 and soft close's 30.
    this.addSql(`alter table notifications drop constraint notifications_type_check`);
    this.addSql(`alter table notifications add constraint notifications_type_check check (type between 1 and 31)`);
    this.addSql(`create index saved_searches_account_idx on saved_searches (account_id, id)`);
    this.addSql(`create index saved_searches_maker_idx on saved_searches (lower(maker))`);
  }
}
