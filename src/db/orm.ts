import { defineConfig, MikroORM, type Options } from '@mikro-orm/postgresql';
import { logger } from '../core/logger';
import { ENTITIES, MIGRATIONS } from '../modules';
import { underAdvisoryLock } from './advisory-lock';
import { boundedDialect } from './bounded-dialect';
import { lazyMigrator } from './migration';

/**
 * knex's own messages, into the process's log instead of the console. It warns of every broken
 * connection it drops from the pool; the database's going is logged once (src/db/reachability.ts).
 */
const KNEX_LOG = {
  warn: (message: unknown) => (String(message).startsWith('Connection Error:') ? logger.debug({ message: String(message) }, 'knex dropped a broken connection') : logger.warn({ message: String(message) }, 'knex')),
  error: (message: unknown) => logger.error({ message: String(message) }, 'knex'),
  deprecate: (method: unknown, alternative: unknown) => logger.warn({ method, alternative }, 'knex: deprecated'),
  debug: (message: unknown) => logger.debug({ message: String(message) }, 'knex'),
};

/** Connections the ORM keeps for one process unless told otherwise (tools, tests). */
const DEFAULT_POOL_SIZE = 10;

/**
 * `statementTimeoutMs` bounds every statement of the pool (0: none); PostgreSQL cancels a
 * statement that runs or waits for a lock longer, and its transaction rolls back.
 * `answerTimeoutMs` bounds, on this side, the wait for a connection of the pool, for a new
 * connection and for the answer to each statement (0: none): a frozen server cancels nothing.
 */
export function ormOptions(clientUrl: string, poolSize = DEFAULT_POOL_SIZE, statementTimeoutMs = 0, answerTimeoutMs = 0): Options {
  return defineConfig({
    clientUrl,
    entities: ENTITIES,
    extensions: [lazyMigrator],
    migrations: { migrationsList: MIGRATIONS, transactional: true, allOrNothing: true, snapshot: false, silent: true },
    discovery: { disableDynamicFileAccess: true },
    forceUtcTimezone: true,
    allowGlobalContext: false,
    pool: { min: 0, max: poolSize, ...(answerTimeoutMs ? { acquireTimeoutMillis: answerTimeoutMs } : {}) },
    driverOptions: {
      client: boundedDialect(answerTimeoutMs, poolSize),
      log: KNEX_LOG,
      connection: {
        // A peer host that is gone (not merely slow) is noticed on an idle connection too.
        keepAlive: true,
        ...(statementTimeoutMs ? { statement_timeout: statementTimeoutMs } : {}),
        ...(answerTimeoutMs ? { connectionTimeoutMillis: answerTimeoutMs } : {}),
      },
    },
    debug: false,
  });
}

/** How many connections of `orm`'s pool are in use, free, and waited for. */
export function poolFigures(orm: MikroORM): () => { used: number; free: number; pending: number } {
  const pool = orm.em.getConnection().getKnex().client.pool as { numUsed(): number; numFree(): number; numPendingAcquires(): number };
  return () => ({ used: pool.numUsed(), free: pool.numFree(), pending: pool.numPendingAcquires() });
}

export async function openDatabase(clientUrl: string, poolSize?: number, statementTimeoutMs?: number, answerTimeoutMs?: number): Promise<MikroORM> {
  return MikroORM.init(ormOptions(clientUrl, poolSize, statementTimeoutMs, answerTimeoutMs));
}

export async function migrate(orm: MikroORM): Promise<void> {
  await orm.getMigrator().up();
}

/**
 * Applies pending migrations on a connection of their own, which no statement timeout bounds (an
 * index on a large table takes its time). Instances that start together on one database take
 * turns, so the next finds the migrations applied.
 */
export async function migrateDatabase(clientUrl: string): Promise<void> {
  await underAdvisoryLock(clientUrl, 'migrations', async () => {
    const orm = await openDatabase(clientUrl, 1);
    try {
      await migrate(orm);
    } finally {
      await orm.close();
    }
  });
}
