import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, MikroORM, type Options } from '@mikro-orm/postgresql';
import { ENTITIES } from './entities';
import { MIGRATIONS } from './migrations';

/** Connections the ORM keeps for one process unless told otherwise (tools, tests). */
const DEFAULT_POOL_SIZE = 10;

export function ormOptions(clientUrl: string, poolSize = DEFAULT_POOL_SIZE): Options {
  return defineConfig({
    clientUrl,
    entities: ENTITIES,
    extensions: [Migrator],
    migrations: { migrationsList: MIGRATIONS, transactional: true, allOrNothing: true, snapshot: false, silent: true },
    discovery: { disableDynamicFileAccess: true },
    forceUtcTimezone: true,
    allowGlobalContext: false,
    pool: { min: 0, max: poolSize },
    debug: false,
  });
}

export async function openDatabase(clientUrl: string, poolSize?: number): Promise<MikroORM> {
  return MikroORM.init(ormOptions(clientUrl, poolSize));
}

export async function migrate(orm: MikroORM): Promise<void> {
  await orm.getMigrator().up();
}
