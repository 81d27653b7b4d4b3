import { Migration } from '../../../db/migration';

export class Migration20261125100000ReservePrice extends Migration {
  override async up(): Promise<void> {
    // The hidden least price the organizer accepts without confirming; null: no reserve.
    this.addSql('alter table lots add column reserve_price numeric(20,2)');
    // When the lot finished because its reserve was not met and nobody acted in time (the second-chance offers test it).
    this.addSql('alter table lots add column lapsed_at timestamptz');
    // Types 32 (reserve_not_met) and 33 (lot_lapsed).
    this.addSql('alter table notifications drop constraint notifications_type_check');
    this.addSql('alter table notifications add constraint notifications_type_check check (type between 1 and 33)');
  }
}
