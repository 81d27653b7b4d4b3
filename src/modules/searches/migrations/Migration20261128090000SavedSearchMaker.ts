import { Migration } from '@mikro-orm/migrations';

export class Migration20261128090000SavedSearchMaker extends Migration {
  override async up(): Promise<void> {
    // A new lot reads the searches naming its maker or none (lower(maker) is null), two ranges
    // of this index, instead of every saved search: docs/saved-searches.md, "Cost".
    this.addSql(`create index saved_searches_maker_idx on saved_searches (lower(maker))`);
  }
}
