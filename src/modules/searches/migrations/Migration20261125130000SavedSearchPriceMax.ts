import { Migration } from '../../../db/migration';

export class Migration20261125130000SavedSearchPriceMax extends Migration {
  override async up(): Promise<void> {
    // A rate change finds the searches whose price max a lot's converted price crossed by a range
    // scan per (lot, currency): docs/saved-searches.md, "When a price falls under a search's max".
    this.addSql(`create index saved_searches_price_max_idx on saved_searches (currency, price_max) where price_max is not null`);
  }
}
