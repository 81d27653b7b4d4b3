import { invalid } from './errors';
import type { KeysetPage } from './page';

// Keyset pagination as listings read it: opaque cursors, the plan of one read, and the page it gives.
// A cursor fault names the listing input's `page.cursor`; each edge shows it where its client gave the cursor.

/** The position a cursor points at: the sort key's value and the id of the row there. */
export interface CursorPosition {
  key: string;
  value: string | number | null;
  id: string;
  /** `next` reads rows after the position, `prev` rows before it. */
  dir: 'next' | 'prev';
}

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.key, position.value, position.id, position.dir === 'next' ? 1 : 0])).toString('base64url');
}

/** A cursor that is not one of the listing's own: forged, truncated, or made for another sort or listing. */
export const cursorFault = () => invalid('invalid_cursor', 'page.cursor is not a cursor of this listing', { field: 'page.cursor' });

/** Decodes an opaque cursor; a cursor that is not ours, or made for another sort key (when one is given), is a 400. */
export function decodeCursor(raw: string, sortKey: string | null): CursorPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw cursorFault();
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) throw cursorFault();
  const [key, value, id, dir] = parsed as unknown[];
  if (typeof key !== 'string' || (sortKey !== null && key !== sortKey) || typeof id !== 'string' || (dir !== 0 && dir !== 1)) throw cursorFault();
  if (value !== null && typeof value !== 'string' && typeof value !== 'number') throw cursorFault();
  return { key, value, id, dir: dir === 1 ? 'next' : 'prev' };
}

export interface KeysetRequest {
  key: string;
  desc: boolean;
  cursor: string | null;
  limit: number;
  /** Without a cursor, read the last `limit` rows rather than the first. */
  fromEnd?: boolean;
}

/**
 * A cursor of a row's position turned to read the other way: an item's position (`KeysetPage.positions`,
 * rows after it) as the rows before it, for a connection's `before`.
 */
export function turnCursor(raw: string, dir: 'next' | 'prev'): string {
  return encodeCursor({ ...decodeCursor(raw, null), dir });
}

/** How to read one page: the order to read in, where to start, and how many rows to ask for. */
export interface KeysetPlan {
  /** Read in this direction (descending when true); the page is reversed back when reading backwards. */
  desc: boolean;
  /** Rows strictly beyond this position in the read direction, or from the start when null. */
  after: { value: string | number | null; id: string } | null;
  /** One more than the page size, to learn whether more rows exist. */
  take: number;
  backwards: boolean;
}

export function planKeyset(req: KeysetRequest): KeysetPlan {
  const position = req.cursor === null ? null : decodeCursor(req.cursor, req.key);
  const backwards = position ? position.dir === 'prev' : req.fromEnd === true;
  return {
    desc: backwards ? !req.desc : req.desc,
    after: position ? { value: position.value, id: position.id } : null,
    take: req.limit + 1,
    backwards,
  };
}

/** Turns the rows read under a plan into a page with the cursors of its neighbours. */
export function keysetPage<T>(
  req: KeysetRequest,
  plan: KeysetPlan,
  rows: T[],
  positionOf: (row: T) => { value: string | number | null; id: string },
): KeysetPage<T> {
  const more = rows.length > req.limit;
  const items = rows.slice(0, req.limit);
  if (plan.backwards) items.reverse();
  const cursor = (row: T | undefined, dir: 'next' | 'prev') =>
    row === undefined ? null : encodeCursor({ key: req.key, ...positionOf(row), dir });
  // Read backwards from a position, the position's own row follows the page; from the end, none does.
  const hasNext = plan.backwards ? plan.after !== null : more;
  const hasPrev = plan.backwards ? more : plan.after !== null;
  return {
    items,
    next: hasNext ? cursor(items[items.length - 1], 'next') : null,
    prev: hasPrev ? cursor(items[0], 'prev') : null,
    positions: () => items.map((row) => cursor(row, 'next') as string),
  };
}
