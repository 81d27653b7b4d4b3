import './process-defaults';
import { ConfigError, loadConfig } from './config';
import { loggable } from './core/loggable';
import { logger } from './core/logger';
import { EmbeddedPostgresError } from './db/embedded.host';
import type { SupervisedPostgres } from './db/embedded.supervisor';
import { ensureDataDir, holdDataDir } from './instance-lock';
import { holdPort, portError, type HeldPort } from './port-check';
import { StartRefusal } from './start-refusal';
import { shellWord } from './core/shell-word';
import { stopOnSignals } from './stop-signals';

/**
 * What a stop may take beyond JOBS_STOP_SECONDS: requests in flight (each statement bounded by
 * DB_ANSWER_TIMEOUT), closing the pools, the database's fast shutdown. Within docker-compose's
 * stop_grace_period (30 s) by default.
 */
const STOP_MARGIN_S = 10;

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  logger.level = config.LOG_LEVEL;
  // What would make the start fail, told at once: not after the database has started and migrated.
  let port: HeldPort;
  try {
    if (config.DATABASE_URL) ensureDataDir(config.DATA_DIR);
    else holdDataDir(config.DATA_DIR);
    port = await holdPort(config.PORT, config.HOST);
  } catch (err) {
    refuse(err);
  }
  // Loaded once those checks pass: the service's modules take seconds to load, and a refusal need not wait for them.
  const [{ createApp }, { readMasterKeypair, startMasterKey }, { startLogKey }, { migrateDatabase, openDatabase }, { checkDatabase }] = await Promise.all([
    import('./app.js'),
    import('./auth/master.js'),
    import('./auth/log-key.js'),
    import('./db/orm.js'),
    import('./db/database-check.js'),
  ]);
  let known;
  try {
    known = readMasterKeypair(config);
    if (config.DATABASE_URL) await checkDatabase(config.DATABASE_URL, config.DATABASE_CREATE);
  } catch (err) {
    refuse(err);
  }

  const embedded = config.DATABASE_URL ? null : await embeddedDatabase(config.DATA_DIR, config.EMBEDDED_DB_PORT);
  const url = config.DATABASE_URL ?? (embedded as SupervisedPostgres).url;
  await migrateDatabase(url);
  const orm = await openDatabase(url, config.DB_POOL_SIZE, config.DB_STATEMENT_TIMEOUT * 1000, config.DB_ANSWER_TIMEOUT * 1000);
  let master, logKey;
  try {
    // Generated only once the database took a connection: a start that fails there leaves no new seed behind.
    master = await startMasterKey(orm.em.fork(), config, known, logger);
    logKey = await startLogKey(orm.em.fork(), config, master, logger);
  } catch (err) {
    refuse(err);
  }

  const app = await createApp({ config, orm, master, logKey, log: logger, healthy: embedded ? () => embedded.healthy() : undefined });
  await port.release();
  const address = await app.listen(config.PORT, config.HOST).catch((err: unknown) => refuse(portError(err, config.PORT, config.HOST)));
  const base = `http://${['0.0.0.0', '::'].includes(config.HOST) ? 'localhost' : config.HOST}:${address.port}`;
  logger.info(
    { port: address.port, masterAccountId: master.publicKey() },
    `listening: API ${base}/, GraphQL and GraphiQL ${base}/graphql, REST reference ${base}/docs, live page of a lot ${base}/live/<lot id>`,
  );

  stopOnSignals(
    {
      async orderly() {
        await app.close();
        await orm.close();
        await embedded?.stop();
      },
      forced: async () => embedded?.stop(true),
      abandons: embedded
        ? 'requests and jobs still running are abandoned, and the embedded PostgreSQL is killed: its next start recovers it, losing nothing committed'
        : 'requests and jobs still running are abandoned',
      limitMs: (config.JOBS_STOP_SECONDS + STOP_MARGIN_S) * 1000,
    },
    logger,
  );
}

/** A start that cannot go on ends with one line saying why, and no stack trace. */
function refuse(err: unknown): never {
  if (!(err instanceof StartRefusal)) throw err;
  process.stderr.write(`Cannot start: ${err.message}\n`);
  process.exit(1);
}

async function embeddedDatabase(dir: string, port: number): Promise<SupervisedPostgres> {
  try {
    const { superviseEmbeddedPostgres } = await import('./db/embedded.supervisor.js');
    const embedded = await superviseEmbeddedPostgres(dir, port, logger);
    const psql = `PGPASSFILE=${shellWord(embedded.passFile)} psql -h 127.0.0.1 -p ${embedded.port} -U postgres postgres`;
    logger.info({ dataDir: embedded.dataDir, psql }, 'embedded PostgreSQL ready (set DATABASE_URL to use a server of your own)');
    return embedded;
  } catch (err) {
    if (!(err instanceof EmbeddedPostgresError)) throw err;
    process.stderr.write(`Cannot start the embedded PostgreSQL: ${err.message}\n`);
    process.exit(1);
  }
}

main().catch((err) => {
  logger.fatal({ err: loggable(err) }, 'failed to start');
  process.exit(1);
});
