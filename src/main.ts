import { createApp } from './app';
import { loadMasterKeypair } from './auth/master';
import { ConfigError, loadConfig } from './config';
import { logger } from './core/logger';
import { EMBEDDED_MAX_CONNECTIONS, startEmbeddedPostgres } from './db/embedded';
import { migrate, openDatabase } from './db/orm';

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

  const embedded = config.DATABASE_URL ? null : await startEmbeddedPostgres(config.DATA_DIR);
  if (embedded) logger.info({ dataDir: config.DATA_DIR }, 'using the embedded PostgreSQL (set DATABASE_URL to use a server)');
  const poolSize = embedded ? Math.min(config.DB_POOL_SIZE, EMBEDDED_MAX_CONNECTIONS) : config.DB_POOL_SIZE;
  const orm = await openDatabase(config.DATABASE_URL ?? (embedded as { url: string }).url, poolSize);
  await migrate(orm);

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

main().catch((err) => {
  logger.fatal({ err }, 'failed to start');
  process.exit(1);
});
