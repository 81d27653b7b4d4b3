import { z } from 'zod';
import { invalid } from './errors';

/** One keyset page of a listing, with the cursors of the pages beside it. */
export interface KeysetPage<T> {
  items: T[];
  next: string | null;
  prev: string | null;
  /**
   * Each item's own position as a cursor: the rows after it as `cursor`, before it turned (`turnCursor`).
   * Made when asked: only a connection's edges need them, and a REST page never does.
   */
  positions(): string[];
}

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 15;

/**
 * The size argument of a list without pages (`last`, `limit`): an integer from 1 to
 * MAX_PAGE_SIZE, else `invalid_page` naming it. The list answers at most that many rows, which is
 * what the GraphQL cost counts for it.
 */
export function listBound(size: number | undefined, field: string): number {
  if (size === undefined) return MAX_PAGE_SIZE;
  if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE_SIZE) throw invalid('invalid_page', `${field} must be an integer from 1 to ${MAX_PAGE_SIZE}`, { field });
  return size;
}

/** One keyset page as a listing's input asks for it: after a cursor (or from the start), at most `limit` rows. */
export const cursorPageInput = z
  .object({
    cursor: z
      .string()
      .nullish()
      .transform((c) => c ?? null),
    limit: z
      .number()
      .refine((n) => Number.isInteger(n) && n >= 1 && n <= MAX_PAGE_SIZE, { message: `must be an integer from 1 to ${MAX_PAGE_SIZE}`, params: { code: 'invalid_page' } })
      .default(DEFAULT_PAGE_SIZE),
    /** Without a cursor, the last `limit` rows of the listing instead of the first (a Relay connection's `last`). */
    fromEnd: z.boolean().default(false),
  })
  .prefault({});

/** A sort of a listing: one of its keys, ascending or descending; `fallback` when none is given. */
export const sortInput = <K extends string>(keys: readonly [K, ...K[]], fallback: { key: K; desc: boolean }) =>
  z
    .object({
      key: z.string().refine((k): k is K => (keys as readonly string[]).includes(k), { message: `must be one of ${keys.join(', ')}`, params: { code: 'unknown_sort' } }),
      desc: z.boolean(),
    })
    .transform((s) => ({ key: s.key as K, desc: s.desc }))
    .prefault(fallback);
