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
