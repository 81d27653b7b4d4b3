import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, MikroORM, type Options } from '@mikro-orm/postgresql';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

export function ormOptions(clientUrl: string): Options {
  return defineConfig({
    clientUrl,
    entities: ENTITIES,
    extensions: [Migrator],
    migrations: { migrationsList: MIGRATIONS, transactional: true, allOrNothing: true, snapshot: false, silent: true },
    discovery: { disableDynamicFileAccess: true },
    forceUtcTimezone: true,
    allowGlobalContext: false,
    pool: { min: 0, max: 10 },
    debug: false,
  });
}

export async function openDatabase(clientUrl: string): Promise<MikroORM> {
  return MikroORM.init(ormOptions(clientUrl));
}

export async function migrate(orm: MikroORM): Promise<void> {
  await orm.getMigrator().up();
}
