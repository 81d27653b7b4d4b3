import { Migration } from '../../../db/migration';

export class Migration20261122010000Identity extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table credentials (
        account_id varchar(56) primary key references accounts (id) on delete cascade,
        password_hash text not null,
        created_at timestamptz not null default now(),
        updated_at timestamptz not null default now()
      )`);
    this.addSql(`
      create table verification_tokens (
        id bigserial primary key,
        account_id varchar(56) not null references accounts (id) on delete cascade,
        channel varchar(5) not null check (channel in ('email', 'phone')),
        token_hash bytea not null,
        resend boolean not null default false,
        expires_at timestamptz not null,
        used_at timestamptz null,
        created_at timestamptz not null default now()
      )`);
    this.addSql(`create index verification_tokens_account_idx on verification_tokens (account_id, channel, created_at)`);
    this.addSql(`
      create table recovery_requests (
        account_id varchar(56) primary key references accounts (id) on delete cascade,
        token_hash bytea not null,
        expires_at timestamptz not null,
        used_at timestamptz null,
        created_at timestamptz not null default now()
      )`);
    this.addSql(`
      create table sign_in_failures (
        id bigserial primary key,
        subject text not null,
        failed_at timestamptz not null default now()
      )`);
    this.addSql(`create index sign_in_failures_subject_idx on sign_in_failures (subject, failed_at)`);
    this.addSql(`
      create table outbox_messages (
        id bigserial primary key,
        channel varchar(5) not null check (channel in ('email', 'sms')),
        recipient text not null,
        account_id varchar(56) null references accounts (id) on delete set null,
        platform_id varchar(56) null,
        subject text not null,
        body text not null,
        created_at timestamptz not null default now()
      )`);
    this.addSql(`create index outbox_messages_recipient_idx on outbox_messages (recipient, created_at)`);
    this.addSql(`create index outbox_messages_platform_idx on outbox_messages (platform_id, created_at)`);
    this.addSql(`
      create table ledger_accounts (
        id varchar(56) primary key,
        sequence bigint not null default 0,
        created_at timestamptz not null default now()
      )`);
  }
}
