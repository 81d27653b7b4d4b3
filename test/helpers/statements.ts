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

/**
 * Every statement the server runs while `work` runs, whoever sends it (the ORM, or the driver's
 * pipelines of the listing and authentication, which the ORM's query events miss): each query the
 * driver sends, and each statement of a pipeline (also when the connection had it prepared).
 */
export async function statementsSent(work: () => Promise<unknown>): Promise<string[]> {
  const original = Client.prototype.query;
  const sent: string[] = [];
  Client.prototype.query = function query(this: Client, config: unknown, ...rest: unknown[]) {
    // A pipeline of prepared statements (db/raw.ts) carries its statements' texts, sent or already parsed.
    const pipeline = (config as { statements?: { text: string }[] } | null)?.statements;
    const text = typeof config === 'string' ? config : ((config as { text?: string }).text ?? '');
    sent.push(...(pipeline ? pipeline.map((p) => p.text) : text.split(';\n')));
    return (original as (...args: unknown[]) => unknown).call(this, config, ...rest);
  } as typeof original;
  try {
    await work();
  } finally {
    Client.prototype.query = original;
  }
  return sent;
}
