import { Migration } from '../../../db/migration';

export class Migration20261127220000Idempotency extends Migration {
  override async up(): Promise<void> {
    // One row per key an account sent with a payload mutation: the operation and a digest of its
    // input, and its result once it committed (null while it runs). The cleaner deletes rows past
    // their lifetime by created_at.
    this.addSql(`
      create table idempotency_keys (
        account_id text not null,
        key text not null,
        operation text not null,
        fingerprint text not null,
        result jsonb,
        created_at timestamptz not null default now(),
        primary key (account_id, key)
      )`);
    this.addSql(`create index idempotency_keys_created_at_idx on idempotency_keys (created_at)`);
  }
}
