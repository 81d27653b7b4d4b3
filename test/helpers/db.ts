import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { migrate, openDatabase } from '../../src/db/orm';
import { MIGRATIONS } from '../../src/modules';

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

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

/** The template every test database is copied from; named after the migrations' code, so an edited migration builds a new one. */
export function templateName(): string {
  const hash = createHash('sha256').update(MIGRATIONS.map((m) => `${m.name}\n${String(m.class)}`).join('\n')).digest('hex').slice(0, 12);
  return `auction_tpl_${hash}`;
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

/** Creates the migrated template once per set of migrations. */
export async function ensureTemplate(): Promise<void> {
  const url = serverUrl();
  const name = templateName();
  const exists = await admin(url, async (c) => (await c.query('select 1 from pg_database where datname = $1', [name])).rowCount);
  if (exists) return;
  const building = `${name}_${randomBytes(4).toString('hex')}`;
  await admin(url, (c) => c.query(`create database "${building}"`));
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

/** A database of this test file's own: a copy of the template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const url = serverUrl();
  const name = `auction_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await admin(url, (c) => c.query(`create database "${name}" template "${templateName()}"`));
  return {
    url: withDatabase(url, name),
    drop: () => admin(url, (c) => c.query(`drop database if exists "${name}" with (force)`)).then(() => undefined),
  };
}
