import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { createTestDatabase } from '../helpers/db';
import { ROOT } from '../helpers/process';

/**
 * The service built (dist/, which `npm test` builds first) in a process of its own: it opens its
 * database, starts the app with the job queue on, and once a job's handler runs, closes the app and
 * the database as the service and the tests do, and then does nothing more: it must end by itself.
 */
const CHILD = `
const { Keypair } = require('@stellar/stellar-sdk');
const { createApp } = require('./dist/app');
const { loadConfig } = require('./dist/config');
const { logger } = require('./dist/core/logger');
const { openDatabase } = require('./dist/db/orm');
(async () => {
  const config = loadConfig(process.env);
  logger.level = config.LOG_LEVEL;
  const orm = await openDatabase(config.DATABASE_URL, undefined, config.DB_STATEMENT_TIMEOUT * 1000, config.DB_ANSWER_TIMEOUT * 1000);
  const app = await createApp({ config, orm, master: Keypair.fromSecret(config.MASTER_SEED), log: logger });
  const running = "select count(*)::int as n from pgboss.job where name = 'rates-refresh' and state = 'active'";
  while ((await orm.em.fork().getConnection().execute(running))[0].n === 0) await new Promise((r) => setTimeout(r, 100));
  console.log('stopping');
  await app.close();
  await orm.close();
  console.log('closed');
})().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
`;

const STOP_SECONDS = 1;

it("a process whose job outlives the stop's limit stops within the limit, then ends by itself", async () => {
  const db = await createTestDatabase();
  // The rates source answers the start's fetch, then holds every later one: the refresh job hangs.
  const held: ServerResponse[] = [];
  let fetches = 0;
  const rates = createServer((_req, res) => {
    if (++fetches > 1) return void held.push(res);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ base: 'EUR', rates: { USD: '1.1' } }));
  });
  await new Promise<void>((resolve) => rates.listen(0, '127.0.0.1', resolve));
  const child = spawn(process.execPath, ['-e', CHILD], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: db.url,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'auction-exit-')),
      MASTER_SEED: Keypair.random().secret(),
      // The hung fetch's failure, once the source hangs up, is a warning; anything worse is printed.
      LOG_LEVEL: 'error',
      JOBS: 'on',
      JOBS_POLL_SECONDS: '0.5',
      JOBS_STOP_SECONDS: String(STOP_SECONDS),
      RATES_URL: `http://127.0.0.1:${(rates.address() as AddressInfo).port}/rates.json`,
      RATES_POLL_SECONDS: '1',
    },
  });
  let output = '';
  const at: Record<string, number> = {};
  child.stdout.on('data', (c: Buffer) => {
    output += c.toString('utf8');
    for (const line of ['stopping', 'closed']) if (at[line] === undefined && output.includes(`${line}\n`)) at[line] = Date.now();
    // The source hangs up once the app has closed: the handler let go of then ends, as its fetch does.
    if (at.closed !== undefined) held.splice(0).forEach((res) => res.destroy());
  });
  child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
  try {
    const code = await new Promise<number | null>((resolve) => {
      const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.once('exit', (exitCode) => {
        clearTimeout(killer);
        resolve(exitCode);
      });
    });
    const ended = Date.now();
    expect({ code, output }).toEqual({ code: 0, output: 'stopping\nclosed\n' });
    // The stop waited its limit for the hung job (pg-boss waits at least a second), and no more;
    // after it nothing of the queue held the process: no expiry timer, no poll, no connection.
    expect(at.closed - at.stopping).toBeGreaterThanOrEqual(STOP_SECONDS * 1000 - 50);
    expect(at.closed - at.stopping).toBeLessThan(STOP_SECONDS * 1000 + 4000);
    expect(ended - at.closed).toBeLessThan(3000);
  } finally {
    child.kill('SIGKILL');
    held.forEach((res) => res.destroy());
    await new Promise((resolve) => rates.close(resolve));
    await db.drop();
  }
}, 90_000);
