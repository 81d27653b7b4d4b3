import { Migration } from '../../../db/migration';

export class Migration20261128010000LogWitnesses extends Migration {
  override async up(): Promise<void> {
    // Where each checkpoint's root was written on the Stellar ledger (docs/bid-log.md, "Anchors"); null until the anchor job ran.
    this.addSql(`
      alter table tlog_checkpoints
        add column anchor_tx varchar(64) null,
        add column anchor_ledger bigint null,
        add column anchor_account varchar(56) null`);
    this.addSql(`create index tlog_checkpoints_unanchored on tlog_checkpoints (size) where anchor_tx is null`);
    // The witnesses' co-signatures, one per witness and checkpoint: the newest it sent. No foreign
    // key: a co-signature is evidence and outlives whatever happens to the row it signed.
    this.addSql(`
      create table tlog_cosignatures (
        size bigint not null,
        witness varchar(200) not null,
        key_id bytea not null,
        signed_at bigint not null,
        line text not null,
        created_at timestamptz not null default now(),
        primary key (size, witness)
      )`);
  }
}
