import { Migrator } from '@mikro-orm/migrations';
import { defineConfig, MikroORM, type Options } from '@mikro-orm/postgresql';
import { ENTITIES, MIGRATIONS } from '../modules';

/** Connections the ORM keeps for one process unless told otherwise (tools, tests). */
const DEFAULT_POOL_SIZE = 10;

/**
 * `statementTimeoutMs` bounds every statement of the pool (0: none); PostgreSQL cancels a
 * statement that runs or waits for a lock longer, and its transaction rolls back.
 */
export function ormOptions(clientUrl: string, poolSize = DEFAULT_POOL_SIZE, statementTimeoutMs = 0): Options {
  return defineConfig({
    clientUrl,
    entities: ENTITIES,
    extensions: [Migrator],
    migrations: { migrationsList: MIGRATIONS, transactional: true, allOrNothing: true, snapshot: false, silent: true },
    discovery: { disableDynamicFileAccess: true },
    forceUtcTimezone: true,
    allowGlobalContext: false,
    pool: { min: 0, max: poolSize },
    ...(statementTimeoutMs ? { driverOptions: { connection: { statement_timeout: statementTimeoutMs } } } : {}),
    debug: false,
  });
}

export async function openDatabase(clientUrl: string, poolSize?: number, statementTimeoutMs?: number): Promise<MikroORM> {
  return MikroORM.init(ormOptions(clientUrl, poolSize, statementTimeoutMs));
}

export async function migrate(orm: MikroORM): Promise<void> {
  await orm.getMigrator().up();
}

/** Applies pending migrations on a connection of their own, which no statement timeout bounds (an index on a large table takes its time). */
export async function migrateDatabase(clientUrl: string): Promise<void> {
  const orm = await openDatabase(clientUrl, 1);
  try {
    await migrate(orm);
  } finally {
    await orm.close();
  }
}
