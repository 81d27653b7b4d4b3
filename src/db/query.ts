import type { EntityManager } from '@mikro-orm/postgresql';
import { sql, type Sql } from './sql';

/** The rows a built statement answers through the ORM's connection, in `em`'s transaction if it has one. */
export async function rowsOf<T>(em: EntityManager, query: Sql): Promise<T[]> {
  const { text, params } = sql.render(query);
  return em.getConnection().execute<T[]>(text, params, 'all', em.getTransactionContext());
}
