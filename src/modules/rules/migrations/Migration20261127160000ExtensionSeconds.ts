import { Migration } from '../../../db/migration';

export class Migration20261127160000ExtensionSeconds extends Migration {
  override async up(): Promise<void> {
    // The seconds soft close added to the lot's end, held to its rules' maxExtensionSeconds.
    this.addSql('alter table lots add column extended_seconds integer not null default 0');
    // A lot extended under a count of moves is taken to have used extendBy per move, the most each
    // could add: with the cap derived from that count (maxExtensions × extendBy) it never gets more
    // time than the count left it.
    this.addSql(`update lots l set extended_seconds = l.extensions * (r.rules->>'extendBy')::int
      from platform_rules r
      where r.platform_id = l.publisher_id and r.version = l.rules_version and l.extensions > 0 and r.rules->>'extendBy' is not null`);
  }
}
