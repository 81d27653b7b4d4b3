import { Migration } from '../../../db/migration';

export class Migration20261122000000Foundation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table accounts (
        id varchar(56) primary key,
        account_type smallint not null,
        platform_id varchar(56) null,
        first_name varchar(30) null,
        last_name varchar(30) null,
        email varchar(254) null,
        email_verified boolean not null default false,
        phone_number varchar(20) null,
        phone_verified boolean not null default false,
        avatar_link text null,
        country varchar(3) null,
        country_id int null,
        city_id int null,
        city varchar(30) null,
        region varchar(30) null,
        address varchar(100) null,
        company varchar(30) null,
        currency varchar(3) null,
        locale varchar(2) null,
        broker_cities text[] not null default '{}',
        social_token_a text null,
        social_token_b text null,
        trusting_platforms text[] not null default '{}',
        flags int not null default 0,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    this.addSql(`create index accounts_platform_type_idx on accounts (platform_id, account_type)`);
    this.addSql(
      `create unique index accounts_platform_email_uniq on accounts (platform_id, lower(email)) where email is not null`,
    );
    this.addSql(`
      create table account_signers (
        account_id varchar(56) not null references accounts (id) on delete cascade,
        signer_key varchar(56) not null,
        weight smallint not null default 1,
        created_at timestamptz not null default now(),
        primary key (account_id, signer_key)
      )`);
    this.addSql(`create index account_signers_key_idx on account_signers (signer_key)`);
    this.addSql(`
      create table blacklist (
        account_id varchar(56) primary key references accounts (id) on delete cascade,
        state varchar(10) not null check (state in ('stopped', 'paused')),
        created_at timestamptz not null default now()
      )`);
    this.addSql(`
      create table seen_signatures (
        digest bytea primary key,
        expires_at timestamptz not null
      )`);
    this.addSql(`create index seen_signatures_expires_idx on seen_signatures (expires_at)`);
  }
}
