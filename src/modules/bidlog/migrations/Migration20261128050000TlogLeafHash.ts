import { Migration } from '../../../db/migration';

export class Migration20261128050000TlogLeafHash extends Migration {
  override async up(): Promise<void> {
    // A receipt of version 2 names its leaves by hash; their inclusion proofs are looked up by it (docs/bid-log.md, "Receipts").
    this.addSql(`create index tlog_leaves_hash on tlog_leaves (hash)`);
  }
}
