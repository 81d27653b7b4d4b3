import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000000Foundation } from './Migration20261122000000Foundation';

/** Every migration, in order. Listed here so that compiled and test builds find them alike. */
export const MIGRATIONS: MigrationObject[] = [
  { name: 'Migration20261122000000Foundation', class: Migration20261122000000Foundation },
];
