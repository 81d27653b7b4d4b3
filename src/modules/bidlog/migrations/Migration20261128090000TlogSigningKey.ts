import { Migration } from '../../../db/migration';

export class Migration20261128090000TlogSigningKey extends Migration {
  override async up(): Promise<void> {
    // An instance started before a rotation must stop appending and signing with the replaced key
    // (docs/bid-log.md, "The log's key"): the twin of recordLogKey's current key (tlog.signing.ts).
    // Stable, without columns: planned as a filter run once per statement.
    this.addSql(`create function tlog_signs(signer text) returns boolean language plpgsql stable as $$
declare
  current text;
begin
  select public_key into current from tlog_keys where until is null;
  if current is not null and current <> signer then
    raise exception 'the bid log''s key % was replaced by %', signer, current using errcode = 'LK001', detail = current;
  end if;
  return true;
end
$$`);
  }
}
