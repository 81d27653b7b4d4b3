import { Migration } from '../../../db/migration';

export class Migration20261128150000TlogKeyPeriods extends Migration {
  override async up(): Promise<void> {
    // A key's period in tree sizes (docs/bid-log.md, "A key's period"): it signs checkpoints of at
    // most `to_size` leaves and receipts for leaves `from_size` to `to_size` - 1. A rotation logs
    // itself as the leaf `leaf_index` (kind `key`, no lot), the new key's first.
    this.addSql(`alter table tlog_keys add column from_size bigint not null default 0, add column to_size bigint null, add column leaf_index bigint null`);
    this.addSql(`alter table tlog_leaves alter column lot_id drop not null`);
    // A log rotated before logged no rotation: a replaced key's period ends at its successor's
    // first checkpoint, which holds every leaf numbered before the rotation (and is no smaller than
    // any the replaced key signed); without one, at the leaves numbered now.
    this.addSql(`
      with k as (
        select public_key, until, lead(public_key) over (order by since, public_key) as next from tlog_keys
      ), ends as (
        select k.public_key,
               case when k.until is null then null
                    when exists (select from tlog_checkpoints c where c.signer = k.next)
                    then greatest((select min(size) from tlog_checkpoints c where c.signer = k.next), (select max(size) from tlog_checkpoints c where c.signer = k.public_key))
                    else (select size from tlog_size) end as to_size
          from k
      )
      update tlog_keys t set to_size = e.to_size from ends e where e.public_key = t.public_key`);
    this.addSql(`
      update tlog_keys t set from_size = p.from_size
        from (select public_key, coalesce(lag(to_size) over (order by since, public_key), 0) as from_size from tlog_keys) p
       where p.public_key = t.public_key`);
  }
}
