import type { EntityManager } from '@mikro-orm/postgresql';
import { positionFault, type ListWindow, type WindowPage } from '../core/list-window';
import { isCalendarTime } from '../core/time';
import { rowsOf } from './query';
import { sql, type Sql } from './sql';

/**
 * How a list is ordered, newest first: by a timestamp `key` then the unique `id` (both descending),
 * or by the id alone (`key` null); `ascending` turns both, oldest first. The id is a bigint, or
 * (`textId`) a text of letters, digits, `:`, `_` and `-` (an account's key, a composite key). A
 * position is the key at microseconds and the id, `|`-joined.
 */
export interface WindowOrder {
  key: Sql | null;
  id: Sql;
  ascending?: boolean;
  textId?: boolean;
}

const TIMED = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|(.*)$/;
const BIGINT = /^\d{1,18}$/;
const TEXT = /^[A-Za-z0-9:_-]{1,200}$/;

/** The position as SQL values (k, i), refused before a cast could fail in the database. */
function positionOf(order: WindowOrder, position: string, field: 'after' | 'before'): [Sql, Sql] {
  const idOf = (text: string) => {
    if (!(order.textId ? TEXT : BIGINT).test(text)) throw positionFault(field);
    return order.textId ? sql`${text}::text` : sql`${text}::bigint`;
  };
  if (order.key === null) return [idOf(position), idOf(position)];
  const parts = TIMED.exec(position);
  if (!parts || !isCalendarTime(parts[1])) throw positionFault(field);
  return [sql`${parts[1]}::timestamptz`, idOf(parts[2])];
}

const LESS = sql`<`;
const MORE = sql`>`;
const AT_MOST = sql`<=`;
const AT_LEAST = sql`>=`;
const ASC = sql`asc`;
const DESC = sql`desc`;

/** What `windowOf`'s statement adds to each row of the list: its position, and the facts of the whole window. */
interface WindowFacts {
  position_w: string;
  total_w: string;
  next_w: boolean;
  previous_w: boolean;
}

/** A list `select <columns> from <from> where <where>` in its order. */
export interface WindowList {
  columns: Sql;
  from: Sql;
  where: Sql;
  order: WindowOrder;
}

/**
 * The statement of one window of `list`: the page's rows (with their position and ordinal
 * `o_w`), or one row of nulls when the page is empty, each carrying the facts of the whole list.
 */
function windowStatement(list: WindowList, window: ListWindow): Sql {
  const { order } = list;
  const key = order.key ?? order.id;
  const text = order.key === null ? sql`w.i_w::text` : sql`to_char(w.k_w at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '|' || w.i_w::text`;
  const after = window.after === null ? null : positionOf(order, window.after, 'after');
  const before = window.before === null ? null : positionOf(order, window.before, 'before');
  // Comparisons and directions in the list's order: `on` is further down the list, `back` before.
  const up = order.ascending === true;
  const [on, back, onOrAt, backOrAt] = up ? [MORE, LESS, AT_LEAST, AT_MOST] : [LESS, MORE, AT_MOST, AT_LEAST];
  const [forward, backward] = up ? [ASC, DESC] : [DESC, ASC];
  const bounds = [after ? sql`(b.k_w, b.i_w) ${on} (${after[0]}, ${after[1]})` : sql`true`, before ? sql`(b.k_w, b.i_w) ${back} (${before[0]}, ${before[1]})` : sql`true`];
  // Read from the end backwards for `last`; the page is put back in the list's order below.
  const direction = window.fromEnd ? backward : forward;
  // `base` inlined where it is used: materialized, it would be read whole (a lot's every bid) for a page of it.
  return sql`with base as not materialized (select ${list.columns}, ${key} as k_w, ${order.id} as i_w from ${list.from} where ${list.where}),
      page as (select * from base b where ${sql.and(bounds)} order by b.k_w ${direction}, b.i_w ${direction} limit ${window.size})
      select w.*, ${text} as position_w, row_number() over (order by w.k_w ${forward}, w.i_w ${forward}) as o_w, facts.total_w, facts.next_w, facts.previous_w
      from (select (select count(*) from base) as total_w,
        case when exists (select 1 from page)
          then exists (select 1 from base b where (b.k_w, b.i_w) ${on} (select p.k_w, p.i_w from page p order by p.k_w ${backward}, p.i_w ${backward} limit 1))
          else ${before ? sql`exists (select 1 from base b where (b.k_w, b.i_w) ${onOrAt} (${before[0]}, ${before[1]}))` : sql`false`} end as next_w,
        case when exists (select 1 from page)
          then exists (select 1 from base b where (b.k_w, b.i_w) ${back} (select p.k_w, p.i_w from page p order by p.k_w ${forward}, p.i_w ${forward} limit 1))
          else ${after ? sql`exists (select 1 from base b where (b.k_w, b.i_w) ${backOrAt} (${after[0]}, ${after[1]}))` : sql`false`} end as previous_w) facts
      left join page w on true`;
}

/** The page of a window statement's rows (one list's): its own columns, as an entity maps them, without the window's (`_w`). */
function pageOfRows<R>(rows: (R & WindowFacts)[]): WindowPage<R> {
  const shown = rows.filter((r) => r.position_w !== null);
  const facts = rows[0];
  return {
    items: shown.map((row) => Object.fromEntries(Object.entries(row).filter(([column]) => !column.endsWith('_w'))) as R),
    positions: shown.map((r) => r.position_w),
    hasNextPage: facts.next_w,
    hasPreviousPage: facts.previous_w,
    totalCount: Number(facts.total_w),
  };
}

/**
 * One window of the list `select <columns> from <from> where <where>`, paged in the database:
 * the page, its positions, whether items lie on either side of it and the whole list's count,
 * in one statement whatever the window (keyset: no offset, so a page deep in a long list reads
 * what it shows). `columns` may not use the names ending in `_w`, which this adds.
 */
export async function windowOf<R extends object>(em: EntityManager, list: WindowList, window: ListWindow): Promise<WindowPage<R>> {
  return pageOfRows(await rowsOf<R & WindowFacts>(em, sql`${windowStatement(list, window)} order by o_w`));
}

/** A statement's row of `windowsOf`: the owner whose list it belongs to. */
interface OwnedRow {
  owner_w: string;
}

/**
 * The same window of the lists of several owners (the accounts of a page, each with its bids),
 * in one statement whatever their number: `where(owner)` narrows the list to one owner, given
 * the SQL of its text id. Each owner's list is read by keyset as `windowOf` reads one, so a
 * window costs its page per owner, not the owner's whole list. Answers the owners' pages in
 * their order.
 */
export async function windowsOf<R extends object>(
  em: EntityManager,
  list: Omit<WindowList, 'where'> & { where: (owner: Sql) => Sql },
  window: ListWindow,
  owners: readonly string[],
): Promise<WindowPage<R>[]> {
  const statement = windowStatement({ ...list, where: list.where(sql`g.owner_w`) }, window);
  const rows = await rowsOf<R & WindowFacts & OwnedRow>(
    em,
    sql`select g.owner_w, x.* from unnest(${sql.array(owners, 'text')}) with ordinality as g(owner_w, n_w)
      cross join lateral (${statement}) x order by g.n_w, x.o_w`,
  );
  const byOwner = new Map<string, (R & WindowFacts & OwnedRow)[]>();
  for (const row of rows) {
    const owned = byOwner.get(row.owner_w);
    if (owned) owned.push(row);
    else byOwner.set(row.owner_w, [row]);
  }
  return owners.map((owner) => pageOfRows(byOwner.get(owner) as (R & WindowFacts)[]));
}
