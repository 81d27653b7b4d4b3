import { Migration } from '@mikro-orm/migrations';
import { SIGNING_KEY_FUNCTION } from '../tlog.signing';

export class Migration20261128090000TlogSigningKey extends Migration {
  override async up(): Promise<void> {
    // An instance started before a rotation must stop appending and signing with the replaced key (docs/bid-log.md, "The log's key").
    this.addSql(SIGNING_KEY_FUNCTION);
  }
}
