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
 *
 * A list ordered by texts (`key: { textKeys }`, a directory by name) goes by each text, ascending,
 * nulls last, then the id; its position is the texts and the id as JSON. The texts are compared in
 * the database, in the same statement and collation as they are ordered, never in JavaScript,
 * whose order (code units) is no collation's.
 */
export interface WindowOrder {
  key: Sql | { textKeys: readonly Sql[] } | null;
  id: Sql;
  ascending?: boolean;
  textId?: boolean;
}

const TIMED = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z)\|(.*)$/;
const BIGINT = /^\d{1,18}$/;
const TEXT = /^[A-Za-z0-9:_-]{1,200}$/;
/** The names of a list's key columns in a window's statement, the most a key has. */
const KEY_NAMES = [sql`k0_w`, sql`k1_w`, sql`k2_w`, sql`k3_w`];
const MOST_TEXTS = KEY_NAMES.length / 2;

/** The expressions a list is ordered by before its id: a text as whether it is null, then its value, so that nulls come last. */
function keysOf(order: WindowOrder): Sql[] {
  if (order.key === null) return [];
  if (!('textKeys' in order.key)) return [order.key];
  if (order.key.textKeys.length > MOST_TEXTS) throw new RangeError(`a window orders by at most ${MOST_TEXTS} texts`);
  return order.key.textKeys.flatMap((text) => [sql`${text} is null`, sql`coalesce(${text}, '')`]);
}

/** The position's values of the list's key columns and its id, refused before a cast could fail in the database. */
function positionOf(order: WindowOrder, position: string, field: 'after' | 'before'): Sql[] {
  const idOf = (text: unknown) => {
    if (typeof text !== 'string' || !(order.textId ? TEXT : BIGINT).test(text)) throw positionFault(field);
    return order.textId ? sql`${text}::text` : sql`${text}::bigint`;
  };
  if (order.key === null) return [idOf(position)];
  if ('textKeys' in order.key) {
    let values: unknown;
    try {
      values = JSON.parse(position);
    } catch {
      throw positionFault(field);
    }
    const count = order.key.textKeys.length;
    if (!Array.isArray(values) || values.length !== count + 1) throw positionFault(field);
    const texts = values.slice(0, count);
    if (!texts.every((t) => t === null || (typeof t === 'string' && t.length <= 1000))) throw positionFault(field);
    return [...texts.flatMap((t: string | null) => [sql`${t === null}::boolean`, sql`${t ?? ''}::text`]), idOf(values[count])];
  }
  const parts = TIMED.exec(position);
  if (!parts || !isCalendarTime(parts[1])) throw positionFault(field);
  return [sql`${parts[1]}::timestamptz`, idOf(parts[2])];
}

/** The text of a row's position (`w`'s key columns and id), as `positionOf` reads it. */
function positionText(order: WindowOrder): Sql {
  if (order.key === null) return sql`w.i_w::text`;
  if ('textKeys' in order.key) {
    const texts = order.key.textKeys.map((_, i) => sql`case when w.${KEY_NAMES[2 * i]} then null else w.${KEY_NAMES[2 * i + 1]} end`);
    return sql`json_build_array(${sql.join(texts)}, w.i_w::text)::text`;
  }
  return sql`to_char(w.k0_w at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '|' || w.i_w::text`;
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
  /** Null when the window did not ask for the count. */
  total_w: string | null;
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
  const keys = keysOf(order);
  const names = KEY_NAMES.slice(0, keys.length);
  // A row's place in the list as a row constructor, compared element by element (each text in its own collation).
  const columnsOf = (alias: Sql) => sql.join([...names.map((k) => sql`${alias}.${k}`), sql`${alias}.i_w`]);
  const tuple = (alias: Sql) => sql`(${columnsOf(alias)})`;
  const orderBy = (alias: Sql, direction: Sql) => sql.join([...names.map((k) => sql`${alias}.${k} ${direction}`), sql`${alias}.i_w ${direction}`]);
  const at = (position: string | null, field: 'after' | 'before') => (position === null ? null : sql`(${sql.join(positionOf(order, position, field))})`);
  const after = at(window.after, 'after');
  const before = at(window.before, 'before');
  // Comparisons and directions in the list's order: `on` is further down the list, `back` before.
  const up = order.ascending === true || (order.key !== null && 'textKeys' in order.key);
  const [on, back, onOrAt, backOrAt] = up ? [MORE, LESS, AT_LEAST, AT_MOST] : [LESS, MORE, AT_MOST, AT_LEAST];
  const [forward, backward] = up ? [ASC, DESC] : [DESC, ASC];
  const [b, p, w] = [sql`b`, sql`p`, sql`w`];
  const bounds = [after ? sql`${tuple(b)} ${on} ${after}` : sql`true`, before ? sql`${tuple(b)} ${back} ${before}` : sql`true`];
  // Read from the end backwards for `last`; the page is put back in the list's order below.
  const direction = window.fromEnd ? backward : forward;
  const keyColumns = sql.join([...keys.map((key, i) => sql`${key} as ${names[i]}`), sql`${order.id} as i_w`]);
  // The row standing for an empty page has no position, whatever the key: texts' positions are
  // JSON arrays, and an array of nulls is a text, not null (`pageOfRows` keeps rows with a position).
  const position = sql`case when w.i_w is not null then ${positionText(order)} end`;
  // `base` inlined where it is used: materialized, it would be read whole (a lot's every bid) for a page of it.
  return sql`with base as not materialized (select ${list.columns}, ${keyColumns} from ${list.from} where ${list.where}),
      page as (select * from base b where ${sql.and(bounds)} order by ${orderBy(b, direction)} limit ${window.size})
      select w.*, ${position} as position_w, row_number() over (order by ${orderBy(w, forward)}) as o_w, facts.total_w, facts.next_w, facts.previous_w
      from (select ${window.counted === false ? sql`null::bigint` : sql`(select count(*) from base)`} as total_w,
        case when exists (select 1 from page)
          then exists (select 1 from base b where ${tuple(b)} ${on} (select ${columnsOf(p)} from page p order by ${orderBy(p, backward)} limit 1))
          else ${before ? sql`exists (select 1 from base b where ${tuple(b)} ${onOrAt} ${before})` : sql`false`} end as next_w,
        case when exists (select 1 from page)
          then exists (select 1 from base b where ${tuple(b)} ${back} (select ${columnsOf(p)} from page p order by ${orderBy(p, forward)} limit 1))
          else ${after ? sql`exists (select 1 from base b where ${tuple(b)} ${backOrAt} ${after})` : sql`false`} end as previous_w) facts
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
    totalCount: facts.total_w === null ? null : Number(facts.total_w),
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
