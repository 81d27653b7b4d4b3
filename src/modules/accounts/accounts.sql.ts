import { ReferenceKind } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { rawQuery, timestamp } from '../../db/raw';
import { sql, type Sql } from '../../db/sql';
import { Account } from './accounts.entity';

interface Column {
  property: string;
  name: string;
  date: boolean;
  /** Read as text inside JSON, where a number would lose digits or its string form (bigint, numeric). */
  text: boolean;
}

let columns: { list: Column[]; select: Sql; array: Sql } | null = null;

/** The account's columns as its entity maps them: a column the entity gains is read too. */
function accountColumns(em: EntityManager): { list: Column[]; select: Sql; array: Sql } {
  if (columns) return columns;
  const list = em
    .getMetadata()
    .get(Account.name)
    .props.filter((p) => p.kind === ReferenceKind.SCALAR && p.persist !== false)
    .map((p) => ({ property: p.name, name: p.fieldNames[0], date: p.runtimeType === 'Date', text: /^(bigint|int8|numeric|decimal)/.test(p.columnTypes[0]) }));
  const identifier = sql.identifiers(list.map((c) => c.name));
  const join = (parts: Sql[]) => parts.reduce((all, part) => sql`${all}, ${part}`);
  const select = join(list.map((c) => identifier(c.name)));
  const array = sql`json_build_array(${join(list.map((c) => (c.text ? sql`a.${identifier(c.name)}::text` : sql`a.${identifier(c.name)}`)))})`;
  return (columns = { list, select, array });
}

function accountOf(list: Column[], value: (c: Column, i: number) => unknown): Account {
  // Stored one by one, not through Object.fromEntries, whose objects of this many properties
  // took three times as long to make (11 accounts: 31 against 11 µs).
  const account: Record<string, unknown> = {};
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    account[c.property] = c.date ? timestamp(value(c, i)) : value(c, i);
  }
  return account as unknown as Account;
}

/**
 * Accounts by id, read through the driver: read-only rows shown beside a page of lots (organizers,
 * platforms, callback requesters), typed as the ORM would map them but never managed by it. The
 * ORM's query building and hydration of ten accounts cost more than the rest of the page did.
 */
export async function accountsByIds(em: EntityManager, ids: readonly string[]): Promise<Account[]> {
  const { list, select } = accountColumns(em);
  const [{ rows }] = await rawQuery(em, sql.render(sql`select ${select} from accounts where id in (select unnest(${sql.array(ids, 'text')}))`));
  return rows.map((r) => accountOf(list, (c) => r[c.name]));
}

/** The account whose id `id` gives, as one JSON array (null without one), for a statement that reads it beside its own rows. */
export function accountArrayById(em: EntityManager, id: Sql): Sql {
  return sql`(select ${accountColumns(em).array} from accounts a where a.id = ${id})`;
}

/** An account from the array `accountArrayById` reads. */
export function accountOfArray(em: EntityManager, values: readonly unknown[]): Account {
  return accountOf(accountColumns(em).list, (_c, i) => values[i]);
}
