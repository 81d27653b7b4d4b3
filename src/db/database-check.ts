import { Client } from 'pg';
import { StartRefusal } from '../start-refusal';

/** How long a start waits for the database server to answer its first connection. */
const CONNECT_TIMEOUT_MS = 10_000;

/** DATABASE_URL as a refusal may show it: its password and query (which may hold one) left out. */
export function shownDatabaseUrl(url: string): string {
  const u = new URL(url);
  u.password = '';
  u.search = '';
  return u.toString();
}

interface ConnectError extends Error {
  code?: string;
}

/** Why a first connection failed, and what the operator can do about it; null when the database itself is missing. */
function reason(err: ConnectError, url: URL): string | null {
  const where = `${url.hostname}:${url.port || 5432}`;
  switch (err.code) {
    case '3D000':
      return null;
    case 'ECONNREFUSED':
      return `nothing accepts connections on ${where} (ECONNREFUSED): start PostgreSQL there, or fix the host and port`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host "${url.hostname}" is not known (${err.code}): fix the host`;
    case '28000':
    case '28P01':
      return `PostgreSQL refused the login (${err.message}): fix the user or the password`;
    default:
      if (/timeout/i.test(err.message)) return `no answer from ${where} within ${CONNECT_TIMEOUT_MS / 1000} s: check that PostgreSQL runs there and is reachable`;
      return `PostgreSQL refused the connection (${err.code ? `${err.code}: ` : ''}${err.message}): fix the server or the URL`;
  }
}

/**
 * Connects once to DATABASE_URL before anything is written for it (a master key, a migration), so
 * that a server out of reach, a refused login or a missing database ends the start in one line. A
 * missing database is created only when `create` says so: a misspelt name would otherwise make a
 * new, empty marketplace next to the real one.
 */
export async function checkDatabase(url: string, create: boolean): Promise<void> {
  const parsed = new URL(url);
  const shown = shownDatabaseUrl(url);
  const name = decodeURIComponent(parsed.pathname.slice(1));
  const failure = await connectOnce(url);
  if (!failure) return;
  const why = reason(failure, parsed);
  if (why !== null) throw new StartRefusal(`DATABASE_URL ${shown}: ${why}`);
  if (!create) {
    throw new StartRefusal(
      `the database "${name}" does not exist on ${parsed.hostname}:${parsed.port || 5432}: create it (createdb ${name}) or fix DATABASE_URL (${shown}), or set DATABASE_CREATE=true to have the service create it`,
    );
  }
  await createDatabase(url, name, shown);
}

async function connectOnce(url: string): Promise<ConnectError | null> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (err) {
    return err as ConnectError;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Creates the database from the server's `postgres` database; another instance creating it at the same moment is no failure. */
async function createDatabase(url: string, name: string, shown: string): Promise<void> {
  const management = new URL(url);
  management.pathname = '/postgres';
  const client = new Client({ connectionString: management.toString(), connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query(`create database "${name.replaceAll('"', '""')}"`);
  } catch (err) {
    if ((err as ConnectError).code === '42P04') return;
    throw new StartRefusal(`DATABASE_URL ${shown}: cannot create the database "${name}" (${(err as Error).message}): create it (createdb ${name}) or fix DATABASE_URL`);
  } finally {
    await client.end().catch(() => undefined);
  }
}
