import type { Leniency } from './vocabulary';

/** The longest text filter where a kind names no `max`. */
export const DEFAULT_TEXT_MAX = 200;

/**
 * What one filter of a listing accepts, said once for the domain and every edge: text of 1 to
 * `max` characters, one or a list of vocabulary values (with their leniency), a list of items of
 * a pattern, an integer, a boolean, or a range of integers or decimals.
 */
export type FilterKind =
  | { kind: 'string'; max?: number }
  | ({ kind: 'enum'; values: readonly string[] } & Leniency)
  | ({ kind: 'list'; values?: readonly string[]; item?: RegExp } & Leniency)
  | { kind: 'integer' }
  | { kind: 'boolean' }
  | { kind: 'range'; of: 'integer' | 'decimal' };
