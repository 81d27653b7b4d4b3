import { loadConfig } from '../config';
import { checkDatabase } from '../db/database-check';
import { openDatabase, migrate } from '../db/orm';
import { loggable } from '../core/loggable';
import { logger } from '../core/logger';

async function main(): Promise<void> {
  const config = loadConfig();
  logger.level = config.LOG_LEVEL;
  if (!config.DATABASE_URL) {
    logger.info('DATABASE_URL is not set: the embedded database migrates itself at start');
    return;
  }
  await checkDatabase(config.DATABASE_URL, config.DATABASE_CREATE);
  const orm = await openDatabase(config.DATABASE_URL);
  try {
    await migrate(orm);
    logger.info('migrations applied');
  } finally {
    await orm.close();
  }
}

main().catch((err) => {
  logger.error({ err: loggable(err) }, 'migration failed');
  process.exitCode = 1;
});
