import { Client } from 'pg';
import type { TestApp } from './app';

/** Runs `work` and counts the SQL statements the ORM sent meanwhile. */
export async function countStatements(t: TestApp, work: () => Promise<unknown>): Promise<number> {
  const knex = t.orm.em.getConnection().getKnex();
  let n = 0;
  const count = () => n++;
  knex.on('query', count);
  try {
    await work();
  } finally {
    knex.off('query', count);
  }
  return n;
}

/** A statement as the driver sent it: its text, with `$n` placeholders, and their values. */
export interface SentStatement {
  text: string;
  values: unknown[];
}

/**
 * Every statement the server runs while `work` runs, whoever sends it (the ORM, or the driver's
 * pipelines of the listing and authentication, which the ORM's query events miss): each query the
 * driver sends, and each statement of a pipeline (also when the connection had it prepared).
 */
export async function statementsSentWithValues(work: () => Promise<unknown>): Promise<SentStatement[]> {
  const original = Client.prototype.query;
  const sent: SentStatement[] = [];
  Client.prototype.query = function query(this: Client, config: unknown, ...rest: unknown[]) {
    // A pipeline of prepared statements (db/raw.ts) carries its statements' texts, sent or already parsed.
    const pipeline = (config as { statements?: SentStatement[] } | null)?.statements;
    if (pipeline) sent.push(...pipeline.map(({ text, values }) => ({ text, values })));
    else {
      const text = typeof config === 'string' ? config : ((config as { text?: string }).text ?? '');
      const values = (typeof config === 'string' ? rest[0] : (config as { values?: unknown }).values) ?? [];
      // Several statements in one query text take no values.
      const parts = text.split(';\n');
      sent.push(...parts.map((part) => ({ text: part, values: parts.length > 1 || !Array.isArray(values) ? [] : values })));
    }
    return (original as (...args: unknown[]) => unknown).call(this, config, ...rest);
  } as typeof original;
  try {
    await work();
  } finally {
    Client.prototype.query = original;
  }
  return sent;
}

/** The texts of `statementsSentWithValues`. */
export async function statementsSent(work: () => Promise<unknown>): Promise<string[]> {
  return (await statementsSentWithValues(work)).map((s) => s.text);
}
