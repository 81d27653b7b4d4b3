import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import { Keypair } from '@stellar/stellar-sdk';
import { createApp, type App } from '../../src/app';
import { loadConfig, type Config } from '../../src/config';
import { logger } from '../../src/core/logger';
import { openDatabase } from '../../src/db/orm';
import { TestClient } from './client';
import { createTestDatabase, type TestDatabase } from './db';

export interface TestApp {
  app: App;
  orm: MikroORM;
  config: Config;
  master: Keypair;
  baseUrl: string;
  port: number;
  /** An unsigned client; `.as(keypair)` signs. */
  client: TestClient;
  close(): Promise<void>;
}

/** Boots the whole service on a random port over this test file's own database. */
export async function startTestApp(env: Record<string, string> = {}, db?: TestDatabase): Promise<TestApp> {
  const database = db ?? (await createTestDatabase());
  const master = env.MASTER_SEED ? Keypair.fromSecret(env.MASTER_SEED) : Keypair.random();
  const config = loadConfig({
    DATABASE_URL: database.url,
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'auction-test-')),
    MASTER_SEED: master.secret(),
    LOG_LEVEL: 'silent',
    // The job queue costs a schema and pollers per app: tests that need it pass JOBS: 'on'.
    JOBS: 'off',
    // Every test calls from this machine's address: the address limits, meant for strangers on
    // the internet, would throttle whole test files. The limit tests (test/hardening/) set theirs.
    RATE_LIMIT_WRITES_PER_ADDRESS: '0',
    RATE_LIMIT_WRITES_PER_ACCOUNT: '0',
    RATE_LIMIT_ACCOUNTS_PER_ADDRESS: '0',
    SIGN_IN_FAILURES_PER_ADDRESS: '10000',
    WS_MAX_CONNECTIONS_PER_ADDRESS: '10000',
    WS_MAX_SUBSCRIPTIONS_PER_ADDRESS: '100000',
    WS_SUBSCRIPTION_BUDGET_PER_ADDRESS: '100000000',
    ...env,
  });
  const orm = await openDatabase(database.url, undefined, config.DB_STATEMENT_TIMEOUT * 1000, config.DB_ANSWER_TIMEOUT * 1000);
  const app = await createApp({ config, orm, master, log: logger });
  const address = await app.listen(0, '127.0.0.1');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  return {
    app,
    orm,
    config,
    master,
    baseUrl,
    port: address.port,
    client: new TestClient(baseUrl),
    async close() {
      await app.close();
      await orm.close();
      if (!db) await database.drop();
    },
  };
}
