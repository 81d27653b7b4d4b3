import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import path from 'node:path';
import { Client } from 'pg';

export interface TestDatabase {
  url: string;
  /** Resolves once the server has the drop: the file goes on without waiting for it to finish. */
  drop(): Promise<void>;
}

const PREFIX = 'auction_test_';

function serverUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('run the tests with `npm test`, which chooses the database');
  return url;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

const MODULES_DIR = path.join(__dirname, '../../src/modules');

/**
 * The template every test database is copied from; named after the migrations' files, so an edited
 * migration builds a new one. Read from the disk: the run's setup loads no service unless it builds.
 */
export function templateName(): string {
  const hash = createHash('sha256');
  for (const area of readdirSync(MODULES_DIR).sort()) {
    const dir = path.join(MODULES_DIR, area, 'migrations');
    if (!existsSync(dir)) continue;
    for (const file of readdirSync(dir).sort()) hash.update(`${area}/${file}\n`).update(readFileSync(path.join(dir, file)));
  }
  return `auction_tpl_${hash.digest('hex').slice(0, 12)}`;
}

/**
 * Test databases are named `auction_test_<run>_<worker>_…`: the run is jest's main process
 * (test/global-setup.ts passes its PID on), so that the run's end drops what its workers left, and
 * a later run drops what a run that was interrupted left.
 */
function runPrefix(): string {
  return `${PREFIX}${process.env.TEST_RUN_PID ?? process.pid}_`;
}

async function admin<T>(url: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Sends `sql` and lets it run: the connection holds no worker open (a worker ends with its last
 * file), and the run's end (dropRunDatabases) takes care of what did not happen.
 */
async function inBackground(url: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: url });
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch {
    return;
  }
  (client as unknown as { connection: { stream: Socket } }).connection.stream.unref();
  void client.query(sql).then(
    () => client.end(),
    () => client.end(),
  ).catch(() => undefined);
}

/** Creates the migrated template once per set of migrations. */
export async function ensureTemplate(): Promise<void> {
  const url = serverUrl();
  const name = templateName();
  const exists = await admin(url, async (c) => (await c.query('select 1 from pg_database where datname = $1', [name])).rowCount);
  if (exists) return;
  const building = `${name}_${randomBytes(4).toString('hex')}`;
  await admin(url, (c) => c.query(`create database "${building}"`));
  const { migrate, openDatabase } = require('../../src/db/orm') as typeof import('../../src/db/orm');
  const orm = await openDatabase(withDatabase(url, building));
  try {
    await migrate(orm);
  } finally {
    await orm.close();
  }
  await admin(url, async (c) => {
    try {
      await c.query(`alter database "${building}" rename to "${name}"`);
    } catch {
      await c.query(`drop database if exists "${building}"`);
    }
  });
}

/**
 * A database of this test file's own: a copy of the template. Copying takes a good part of a
 * second, so each worker keeps one copy ahead, made while its current file runs: a copy nobody
 * has connected to, renamed to the next file's name (a copy still being made is not seen yet).
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = serverUrl();
  const mine = `${runPrefix()}${process.pid}_`;
  const name = `${mine}${randomBytes(4).toString('hex')}`;
  const spare = `${mine}spare`;
  const template = templateName();
  await admin(url, async (c) => {
    try {
      await c.query(`alter database "${spare}" rename to "${name}"`);
    } catch {
      await c.query(`create database "${name}" template "${template}"`);
    }
  });
  await inBackground(url, `create database "${spare}" template "${template}"`);
  return {
    url: withDatabase(url, name),
    drop: () => inBackground(url, `drop database if exists "${name}" with (force)`),
  };
}

/** An empty database of this test file's own, for a test that migrates it itself (a migration's backfill). */
export async function createEmptyDatabase(): Promise<TestDatabase> {
  const url = serverUrl();
  const name = `${runPrefix()}${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin(url, (c) => c.query(`create database "${name}"`));
  return { url: withDatabase(url, name), drop: () => inBackground(url, `drop database if exists "${name}" with (force)`) };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** At the end of a run: what its workers left (drops and spare copies they did not wait for), once the copies being made are done. */
export async function dropRunDatabases(): Promise<void> {
  const prefix = runPrefix();
  await admin(serverUrl(), async (c) => {
    const copying = async () => (await c.query(`select 1 from pg_stat_activity where state = 'active' and starts_with(query, $1)`, [`create database "${prefix}`])).rowCount;
    for (const until = Date.now() + 10_000; (await copying()) && Date.now() < until; ) await new Promise((r) => setTimeout(r, 100));
    const { rows } = await c.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [prefix]);
    for (const { datname } of rows) await c.query(`drop database if exists "${datname}" with (force)`);
  });
}

/**
 * At the start of a run: what interrupted runs left, named after a process of this machine that
 * is gone. Without FORCE: a database someone is connected to is not left over.
 */
export async function dropStaleDatabases(): Promise<void> {
  await admin(serverUrl(), async (c) => {
    const { rows } = await c.query<{ datname: string }>('select datname from pg_database where starts_with(datname, $1)', [PREFIX]);
    for (const { datname } of rows) {
      if (alive(Number(datname.slice(PREFIX.length).split('_')[0]))) continue;
      await c.query(`drop database if exists "${datname}"`).catch(() => undefined);
    }
  });
}
