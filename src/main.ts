import './process-defaults';
import { createApp } from './app';
import { loadMasterKeypair } from './auth/master';
import { ConfigError, loadConfig } from './config';
import { loggable } from './core/loggable';
import { logger } from './core/logger';
import { EmbeddedPostgresError, startEmbeddedPostgres, type EmbeddedPostgres } from './db/embedded';
import { migrateDatabase, openDatabase } from './db/orm';

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
  const master = loadMasterKeypair(config, logger);

  const embedded = config.DATABASE_URL ? null : await embeddedDatabase(config.DATA_DIR, config.EMBEDDED_DB_PORT);
  const url = config.DATABASE_URL ?? (embedded as EmbeddedPostgres).url;
  await migrateDatabase(url);
  const orm = await openDatabase(url, config.DB_POOL_SIZE, config.DB_STATEMENT_TIMEOUT * 1000);

  const app = await createApp({ config, orm, master, log: logger });
  const address = await app.listen(config.PORT, config.HOST);
  logger.info({ port: address.port, masterAccountId: master.publicKey() }, 'listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    try {
      await app.close();
      await orm.close();
      await embedded?.stop();
    } finally {
      process.exit(0);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}

async function embeddedDatabase(dir: string, port: number): Promise<EmbeddedPostgres> {
  try {
    const embedded = await startEmbeddedPostgres({ dir, port });
    const psql = `PGPASSFILE=${embedded.passFile} psql -h 127.0.0.1 -p ${embedded.port} -U postgres postgres`;
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
