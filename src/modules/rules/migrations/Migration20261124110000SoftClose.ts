import { Migration } from '../../../db/migration';

export class Migration20261124110000SoftClose extends Migration {
  override async up(): Promise<void> {
    // How many times soft close moved the lot's end, held to its rules' max_extensions.
    this.addSql('alter table lots add column extensions integer not null default 0');
    // Type 30, lot_extended, is soft close's notice to the participants.
    this.addSql('alter table notifications drop constraint notifications_type_check');
    this.addSql('alter table notifications add constraint notifications_type_check check (type between 1 and 30)');
  }
}
