import { Migration } from '../../../db/migration';

export class Migration20261127150000SignInAddresses extends Migration {
  override async up(): Promise<void> {
    // The address groups (an IPv4 address, an IPv6 /64) each account last signed in from with its
    // password: their failures are not charged to the budget that strangers share (sign-in-limit.ts).
    this.addSql(`
      create table sign_in_addresses (
        account_id varchar(56) not null references accounts (id) on delete cascade,
        address text not null,
        signed_in_at timestamptz not null default now(),
        primary key (account_id, address)
      )`);
    this.addSql(`create index sign_in_addresses_signed_in_at_idx on sign_in_addresses (signed_in_at)`);
  }
}
