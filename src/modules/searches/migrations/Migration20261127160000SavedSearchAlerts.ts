import { Migration } from '../../../db/migration';

export class Migration20261127160000SavedSearchAlerts extends Migration {
  override async up(): Promise<void> {
    // When a search last alerted its account about a lot, per reason: at most once a day each
    // (docs/saved-searches.md), so that a price moving to and fro across a max alerts once.
    this.addSql(`
      create table saved_search_alerts (
        search_id bigint not null references saved_searches (id) on delete cascade,
        lot_id bigint not null,
        reason text not null,
        alerted_at timestamptz not null,
        primary key (search_id, lot_id, reason)
      )`);
  }
}
