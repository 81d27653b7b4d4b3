// A database of a benchmark's own: a new one on the DATABASE_URL server, else one on an embedded server of its own.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Client } = require('pg');
const { startEmbeddedPostgres } = require('../dist/db/embedded.js');

function withDatabase(url, name) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin(url, sql) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function freshDatabase(prefix) {
  if (process.env.DATABASE_URL) {
    const name = `${prefix}_${randomBytes(4).toString('hex')}`;
    await admin(process.env.DATABASE_URL, `create database "${name}"`);
    return { kind: 'server', url: withDatabase(process.env.DATABASE_URL, name), drop: () => admin(process.env.DATABASE_URL, `drop database if exists "${name}" with (force)`) };
  }
  const dir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  const embedded = await startEmbeddedPostgres({ dir });
  const drop = async () => {
    await embedded.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  return { kind: 'embedded', url: embedded.url, drop };
}
