import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000Foundation } from './Migration20261122000000Foundation';
import { Migration20261122010000Identity } from './Migration20261122010000Identity';
import { Migration20261122020000Catalogue } from './Migration20261122020000Catalogue';
import { Migration20261122040000LotIndexes } from './Migration20261122040000LotIndexes';
import { Migration20261122050000Notifications } from './Migration20261122050000Notifications';
import { Migration20261122060000Bids } from './Migration20261122060000Bids';
import { Migration20261122100000Jobs } from './Migration20261122100000Jobs';
import { Migration20261122070000Messages } from './Migration20261122070000Messages';
import { Migration20261122080000Documents } from './Migration20261122080000Documents';
import { Migration20261122090000Ledger } from './Migration20261122090000Ledger';
import { Migration20261122110000ReplayLogged } from './Migration20261122110000ReplayLogged';
import { Migration20261124000000LedgerRelay } from './Migration20261124000000LedgerRelay';

/** Every migration, in order. Listed here so that compiled and test builds find them alike. */
export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261122000000Foundation', class: Migration20261122000000Foundation },
  { name: 'Migration20261122010000Identity', class: Migration20261122010000Identity },
  { name: 'Migration20261122020000Catalogue', class: Migration20261122020000Catalogue },
  { name: 'Migration20261122040000LotIndexes', class: Migration20261122040000LotIndexes },
  { name: 'Migration20261122050000Notifications', class: Migration20261122050000Notifications },
  { name: 'Migration20261122060000Bids', class: Migration20261122060000Bids },
  { name: 'Migration20261122070000Messages', class: Migration20261122070000Messages },
  { name: 'Migration20261122080000Documents', class: Migration20261122080000Documents },
  { name: 'Migration20261122090000Ledger', class: Migration20261122090000Ledger },
  { name: 'Migration20261122100000Jobs', class: Migration20261122100000Jobs },
  { name: 'Migration20261122110000ReplayLogged', class: Migration20261122110000ReplayLogged },
  { name: 'Migration20261124000000LedgerRelay', class: Migration20261124000000LedgerRelay },
];
