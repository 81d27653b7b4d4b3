import { Migration } from '../../../db/migration';

export class Migration20261122020000Catalogue extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table currency_rates (
        currency varchar(3) primary key,
        units_per_eur numeric(30, 12) not null check (units_per_eur > 0),
        as_of timestamptz not null,
        updated_at timestamptz not null default now()
      )`);
    // Shipped defaults (units per 1 EUR, as of the date given); replaced by the rates source or staff.
    this.addSql(`
      insert into currency_rates (currency, units_per_eur, as_of) values
        ('EUR', 1, '2026-11-01T00:00:00Z'),
        ('USD', 1.08, '2026-11-01T00:00:00Z'),
        ('GEL', 2.93, '2026-11-01T00:00:00Z'),
        ('UAH', 44.9, '2026-11-01T00:00:00Z'),
        ('BTC', 0.0000155, '2026-11-01T00:00:00Z')`);

    this.addSql(`
      create table lots (
        id bigserial primary key,
        lot_type smallint not null check (lot_type in (0, 1, 2, 3)),
        lot_state smallint not null default 1 check (lot_state in (1, 2, 3)),
        currency varchar(3) not null,
        start_price numeric(20, 2) not null default 0,
        buy_now_price numeric(20, 2) not null default 0,
        deposit numeric(20, 2) not null default 0,
        min_step numeric(20, 2) not null default 0,
        max_step numeric(20, 2) not null default 0,
        highest_bid numeric(20, 2) null,
        b2b_vehicle_price numeric(20, 2) null,
        b2c_vehicle_price numeric(20, 2) null,
        b2c_total_price numeric(20, 2) null,
        start_time timestamptz not null,
        duration integer not null check (duration >= 0),
        end_time timestamptz not null,
        organizer_id varchar(56) not null references accounts (id),
        publisher_id varchar(56) not null references accounts (id),
        winner_id varchar(56) null,
        details jsonb not null default '{}',
        country varchar(3) null,
        city varchar(100) null,
        year smallint null,
        maker varchar(100) null,
        model varchar(100) null,
        vin varchar(32) null,
        wheel varchar(5) null,
        fuel_type varchar(20) null,
        transmission varchar(30) null,
        registered boolean null,
        engine_volume numeric(6, 2) null,
        source_lot_id bigint null,
        yard_number integer null,
        sale_status varchar(20) null,
        search tsvector generated always as (
          to_tsvector('simple', coalesce(vin, '') || ' ' || id::text || ' ' || coalesce(source_lot_id::text, '') || ' ' || coalesce(model, ''))
        ) stored,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    this.addSql(`create unique index lots_source_uniq on lots (lot_type, source_lot_id) where source_lot_id is not null`);
    this.addSql(`create index lots_start_time_idx on lots (start_time desc, id desc)`);
    this.addSql(`create index lots_end_time_idx on lots (end_time, id)`);
    this.addSql(`create index lots_created_idx on lots (created_at, id)`);
    this.addSql(`create index lots_updated_idx on lots (updated_at, id)`);
    this.addSql(`create index lots_type_state_idx on lots (lot_type, lot_state, end_time)`);
    this.addSql(`create index lots_country_year_idx on lots (country, year)`);
    this.addSql(`create index lots_maker_model_idx on lots (lower(maker), lower(model) text_pattern_ops)`);
    this.addSql(`create index lots_vin_idx on lots (vin)`);
    this.addSql(`create index lots_organizer_idx on lots (organizer_id, start_time desc)`);
    this.addSql(`create index lots_publisher_idx on lots (publisher_id, start_time desc)`);
    this.addSql(`create index lots_winner_idx on lots (winner_id) where winner_id is not null`);
    this.addSql(`create index lots_search_idx on lots using gin (search)`);

    this.addSql(`
      create table participants (
        id bigserial primary key,
        lot_id bigint not null references lots (id) on delete cascade,
        account_id varchar(56) not null references accounts (id),
        state smallint not null,
        requested_buy_now boolean not null default false,
        current_bid numeric(20, 2) null,
        max_bid numeric(20, 2) null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now(),
        unique (lot_id, account_id)
      )`);
    this.addSql(`create index participants_account_idx on participants (account_id, state)`);

    this.addSql(`
      create table deposits (
        id bigserial primary key,
        participant_id bigint not null unique references participants (id) on delete cascade,
        lot_id bigint not null references lots (id) on delete cascade,
        account_id varchar(56) not null references accounts (id),
        amount numeric(20, 2) not null,
        currency varchar(3) not null,
        state smallint not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    this.addSql(`create index deposits_lot_idx on deposits (lot_id)`);
    this.addSql(`create index deposits_account_idx on deposits (account_id, created_at)`);

    this.addSql(`
      create table winner_details (
        lot_id bigint primary key references lots (id) on delete cascade,
        invoice_id varchar(100) null,
        invoice_paid boolean null,
        deal_canceled boolean null,
        container_id varchar(100) null,
        service_link text null,
        fee_amount numeric(20, 2) null,
        transportation_fee numeric(20, 2) null,
        fee_currency varchar(3) null,
        updated_at timestamptz not null default now()
      )`);

    this.addSql(`
      create table stars (
        account_id varchar(56) not null references accounts (id) on delete cascade,
        lot_id bigint not null references lots (id) on delete cascade,
        created_at timestamptz not null default now(),
        primary key (account_id, lot_id)
      )`);
    this.addSql(`create index stars_lot_idx on stars (lot_id)`);

    this.addSql(`
      create table callbacks (
        id bigserial primary key,
        lot_id bigint not null references lots (id) on delete cascade,
        account_id varchar(56) not null references accounts (id) on delete cascade,
        created_at timestamptz not null default now(),
        unique (lot_id, account_id)
      )`);

    this.addSql(`
      create table create_lot_requests (
        id bigserial primary key,
        requestor varchar(56) not null references accounts (id),
        platform_id varchar(56) not null references accounts (id),
        request_state smallint not null default 1 check (request_state between 1 and 5),
        body jsonb not null,
        hash char(64) not null,
        lot_id bigint null references lots (id),
        reject_reason text not null default '',
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    this.addSql(`create index create_lot_requests_platform_idx on create_lot_requests (platform_id, request_state, created_at)`);
    this.addSql(`create index create_lot_requests_requestor_idx on create_lot_requests (requestor, created_at)`);
  }
}
