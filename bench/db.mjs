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

async function admin(url, ...statements) {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const results = [];
    for (const sql of statements) results.push(await client.query(sql));
    return results;
  } finally {
    await client.end();
  }
}

/**
 * `statements: true` asks for pg_stat_statements in the database (see `statementStats`). The
 * embedded server is restarted once with the library preloaded; a server is never restarted by
 * the bench: there the figures come only when its administrator preloaded the library.
 */
export async function freshDatabase(prefix, { statements = false } = {}) {
  if (process.env.DATABASE_URL) {
    const name = `${prefix}_${randomBytes(4).toString('hex')}`;
    await admin(process.env.DATABASE_URL, `create database "${name}"`);
    const url = withDatabase(process.env.DATABASE_URL, name);
    const drop = () => admin(process.env.DATABASE_URL, `drop database if exists "${name}" with (force)`);
    const [preload] = await admin(url, 'show shared_preload_libraries');
    const preloaded = /\bpg_stat_statements\b/.test(preload.rows[0].shared_preload_libraries);
    if (statements && preloaded) await admin(url, 'create extension if not exists pg_stat_statements');
    const unavailable = statements && !preloaded ? 'the server does not preload pg_stat_statements (shared_preload_libraries; the bench never restarts a server)' : null;
    return { kind: 'server', url, drop, statements: statements && preloaded, unavailable };
  }
  const dir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  let embedded = await startEmbeddedPostgres({ dir });
  if (statements) {
    await admin(embedded.url, `alter system set shared_preload_libraries = 'pg_stat_statements'`, `alter system set pg_stat_statements.track_planning = on`);
    await embedded.stop();
    embedded = await startEmbeddedPostgres({ dir });
    await admin(embedded.url, 'create extension pg_stat_statements');
  }
  const drop = async () => {
    await embedded.stop();
    rmSync(dir, { recursive: true, force: true });
  };
  return { kind: 'embedded', url: embedded.url, drop, statements, unavailable: null };
}

/** Forgets what pg_stat_statements counted so far, for every database of the server. */
export async function resetStatementStats(url) {
  await admin(url, 'select pg_stat_statements_reset()');
}

/**
 * What the statements of this database cost since the last reset, per `per` (e.g. accepted bids):
 * calls, mean execution (and planning) time, and WAL bytes, the costliest first. `top` statements
 * are shown, each as its normalised text cut to `width` characters.
 */
export async function statementStats(url, per, { top = 12, width = 120 } = {}) {
  const [{ rows }] = await admin(
    url,
    `select regexp_replace(query, '\\s+', ' ', 'g') as query, calls, total_exec_time, total_plan_time, wal_bytes
       from pg_stat_statements
      where dbid = (select oid from pg_database where datname = current_database()) and calls > 0
      order by total_exec_time + total_plan_time desc`,
  );
  const n = Math.max(1, per);
  const round = (v, d = 3) => +Number(v).toFixed(d);
  const total = rows.reduce(
    (t, r) => ({ calls: t.calls + Number(r.calls), ms: t.ms + r.total_exec_time + r.total_plan_time, wal: t.wal + Number(r.wal_bytes) }),
    { calls: 0, ms: 0, wal: 0 },
  );
  return {
    per: n,
    perUnit: { statements: round(total.calls / n, 2), databaseMs: round(total.ms / n), walBytes: Math.round(total.wal / n) },
    statements: rows.slice(0, top).map((r) => ({
      query: r.query.length > width ? `${r.query.slice(0, width - 1)}…` : r.query,
      callsPerUnit: round(Number(r.calls) / n),
      meanExecMs: round(r.total_exec_time / Number(r.calls)),
      meanPlanMs: round(r.total_plan_time / Number(r.calls)),
      walBytesPerUnit: Math.round(Number(r.wal_bytes) / n),
    })),
  };
}
