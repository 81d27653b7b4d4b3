import path from 'node:path';
import type { MikroORM } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';

type MigrationsPackage = typeof import('@mikro-orm/migrations');

/**
 * The base class of the schema's migrations, from its own file: the package's index also loads the
 * migrator, umzug and its command-line library (some 290 modules, a good part of a second), which
 * only a process that migrates needs. The package exports its index alone, so the file is reached
 * by its path; the index, when loaded, requires this same file, so there is one class.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const Migration: MigrationsPackage['Migration'] = (require(path.join(path.dirname(require.resolve('@mikro-orm/migrations')), 'Migration.js')) as MigrationsPackage).Migration;

/** MikroORM's migrator extension, its package loaded by the first `orm.getMigrator()`. */
export const lazyMigrator = {
  register(orm: MikroORM): void {
    orm.config.registerExtension('@mikro-orm/migrator', () => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { Migrator } = require('@mikro-orm/migrations') as MigrationsPackage;
      return new Migrator(orm.em as EntityManager);
    });
  },
};
