import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/db/embedded.host';
import { Client } from 'pg';
import { launch, reapAll, untilServing } from './launch';

/**
 * A DATABASE_URL the service cannot use ends the start in one line naming DATABASE_URL without
 * its password, with no stack trace, and before a master key is generated for it.
 */
afterEach(() => reapAll());

const server = () => new URL(process.env.TEST_DATABASE_URL as string);

const start = async (databaseUrl: string) => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'db-refusal-'));
  const service = launch(process.execPath, ['dist/main.js'], dataDir, await freePort(), { DATABASE_URL: databaseUrl });
  const code = await service.exited;
  return { code, output: service.output(), seedWritten: existsSync(path.join(dataDir, 'master.seed')) };
};

describe('a start refused for its database', () => {
  it('names a server that takes no connections, without the password', async () => {
    const port = await freePort();
    const result = await start(`postgres://nobody:hunter2secret@127.0.0.1:${port}/auction`);
    expect(result).toEqual({
      code: 1,
      output: `Cannot start: DATABASE_URL postgres://nobody@127.0.0.1:${port}/auction: nothing accepts connections on 127.0.0.1:${port} (ECONNREFUSED): start PostgreSQL there, or fix the host and port\n`,
      seedWritten: false,
    });
  }, 60_000);

  it('names a role the server does not know, and hides its password and query', async () => {
    const url = server();
    url.username = 'no_such_role_refusal';
    url.password = 'hunter2secret';
    url.search = '?password=hunter2secret';
    const { code, output, seedWritten } = await start(url.toString());
    url.password = '';
    url.search = '';
    expect({ code, seedWritten }).toEqual({ code: 1, seedWritten: false });
    // A server that asks for passwords does not tell an unknown role from a wrong password; one that trusts the address does.
    const reason = /^(role "no_such_role_refusal" does not exist|password authentication failed for user "no_such_role_refusal")$/;
    const prefix = `Cannot start: DATABASE_URL ${url.toString()}: PostgreSQL refused the login (`;
    const suffix = '): fix the user or the password\n';
    expect(output.startsWith(prefix) && output.endsWith(suffix)).toBe(true);
    expect(output.slice(prefix.length, -suffix.length)).toMatch(reason);
    expect(output).not.toContain('hunter2secret');
  }, 60_000);
});

describe('a DATABASE_URL naming a database the server does not have', () => {
  const missing = () => {
    const url = server();
    url.pathname = `/auction_missing_${process.pid}_${Date.now()}`;
    return url;
  };
  const exists = async (name: string) => {
    const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    try {
      return (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
    } finally {
      await client.end();
    }
  };
  const dropped: string[] = [];

  afterAll(async () => {
    const client = new Client({ connectionString: process.env.TEST_DATABASE_URL });
    await client.connect();
    for (const name of dropped) await client.query(`drop database if exists "${name}" with (force)`);
    await client.end();
  });

  it('refuses, saying how to create it, and creates nothing', async () => {
    const url = missing();
    const name = url.pathname.slice(1);
    dropped.push(name);
    const result = await start(url.toString());
    const shown = new URL(url.toString());
    shown.password = '';
    expect(result).toEqual({
      code: 1,
      output: `Cannot start: the database "${name}" does not exist on ${url.hostname}:${url.port || 5432}: create it (createdb ${name}) or fix DATABASE_URL (${shown.toString()}), or set DATABASE_CREATE=true to have the service create it\n`,
      seedWritten: false,
    });
    expect(await exists(name)).toBe(false);
  }, 60_000);

  it('creates it and serves when DATABASE_CREATE=true says so', async () => {
    const url = missing();
    const name = url.pathname.slice(1);
    dropped.push(name);
    const service = launch(process.execPath, ['dist/main.js'], mkdtempSync(path.join(tmpdir(), 'db-create-')), await freePort(), { DATABASE_URL: url.toString(), DATABASE_CREATE: 'true' });
    await untilServing(service, 120_000);
    expect(await exists(name)).toBe(true);
  }, 150_000);
});
