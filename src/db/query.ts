import type { EntityManager } from '@mikro-orm/postgresql';
import { preparedRows, type Statement } from './raw';
import { sql, type Sql } from './sql';

// The executor of every set-based statement but the hot paths' pipelines (src/db/raw.ts): a
// statement built with `sql`, through the ORM's connection, in `em`'s transaction when it has one.

/**
 * The rows `query` answers; `T` is the shape its select list or `returning` declares. A rendered
 * statement is for a text built once from the code's constants (a feed's column list).
 */
export async function rowsOf<T>(em: EntityManager, query: Sql | Statement): Promise<T[]> {
  const { text, params = [] } = 'texts' in query ? sql.render(query) : query;
  return em.getConnection().execute<T[]>(text, [...params], 'all', em.getTransactionContext());
}

/**
 * `rowsOf` as a named statement, which a connection plans for its first runs only (`preparedRows`
 * in raw.ts): for a statement whose plan does not depend on its values and which is planned at
 * every call (a new lot's saved-search match).
 */
export async function preparedRowsOf<T>(em: EntityManager, query: Sql): Promise<T[]> {
  return (await preparedRows(em, sql.render(query))) as T[];
}

/** What a statement counting rows answers: bigint, as text. */
interface Counted {
  n: string;
}

/** How many rows `from` holds: a `from … where …` clause, counted by one statement. */
export async function countOf(em: EntityManager, from: Sql): Promise<number> {
  const [{ n }] = await rowsOf<Counted>(em, sql`select count(*) as n from ${from}`);
  return Number(n);
}

interface Found {
  found: boolean;
}

/** Whether `from`, a `from … where …` clause, holds a row at all. */
export async function anyIn(em: EntityManager, from: Sql): Promise<boolean> {
  const [{ found }] = await rowsOf<Found>(em, sql`select exists (select 1 from ${from}) as found`);
  return found;
}

/** How many rows `query` inserted, updated or deleted. */
export async function changedBy(em: EntityManager, query: Sql): Promise<number> {
  const { text, params } = sql.render(query);
  const { affectedRows } = await em.getConnection().execute<{ affectedRows: number }>(text, params, 'run', em.getTransactionContext());
  return affectedRows;
}
