import { cursorFault } from '../core/cursors';
import { isCalendarTime } from '../core/time';
import { sql, type Sql } from './sql';

const anyValue = (): boolean => true;

/**
 * How a sort value travels in a cursor: the text the database writes of it, the pattern that
 * text has (and, for a time, that its fields name one), and the type it is cast back to.
 * Timestamps keep their microseconds, so ties never repeat a row.
 */
const KINDS = {
  timestamp: {
    text: (e: Sql) => sql`to_char(${e} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
    pattern: /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/,
    real: isCalendarTime,
    cast: (v: string) => sql`${v}::timestamptz`,
  },
  decimal: {
    text: (e: Sql) => sql`(${e})::text`,
    pattern: /^-?\d{1,20}(\.\d{1,2})?$/,
    real: anyValue,
    cast: (v: string) => sql`${v}::numeric`,
  },
  /** An exact quotient (a stored price in EUR): as many decimals as the division gave. */
  numeric: {
    text: (e: Sql) => sql`(${e})::text`,
    pattern: /^-?\d{1,30}(\.\d{1,40})?$/,
    real: anyValue,
    cast: (v: string) => sql`${v}::numeric`,
  },
};
const ID = /^\d{1,18}$/;

export type SortKind = keyof typeof KINDS;

/** Where a page starts: the direction to read in and the position (sort value, id) to read beyond. */
export interface KeysetStart {
  desc: boolean;
  after: { value: string | number | null; id: string } | null;
}

export interface KeysetClauses {
  /** The sort value as the cursor carries it: select it beside the row. */
  sortValue: Sql;
  /** The rows beyond the start (true from the first row). */
  beyond: Sql;
  orderBy: Sql;
}

/**
 * The clauses of a keyset page ordered by `key`, then by the bigint `id`. A position that is not
 * of `kind` (forged, or from another listing) is refused as any cursor not ours, before a cast
 * could fail in the database.
 */
export function keysetClauses(key: Sql, kind: SortKind, id: Sql, start: KeysetStart): KeysetClauses {
  const { text, pattern, real, cast } = KINDS[kind];
  const columns = [key, id];
  let beyond = sql`true`;
  if (start.after) {
    const { value, id: afterId } = start.after;
    if (typeof value !== 'string' || !pattern.test(value) || !real(value) || !ID.test(afterId)) {
      throw cursorFault();
    }
    beyond = sql.beyond(columns, [cast(value), sql`${afterId}::bigint`], start.desc);
  }
  return { sortValue: text(key), beyond, orderBy: sql.orderBy(columns, start.desc) };
}
