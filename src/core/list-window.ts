import { invalid } from './errors';

/**
 * One page of a list the database pages (a dashboard's connection): `size` items from the start
 * or (`fromEnd`) from the end of the items between the positions `after` and `before`, each a
 * position a previous page answered.
 */
export interface ListWindow {
  size: number;
  fromEnd: boolean;
  after: string | null;
  before: string | null;
  /** Whether the whole list's length is wanted (a connection's `totalCount` selected); counted unless false. */
  counted?: boolean;
}

/** A window's items in the list's order, each with its position, and the facts of the whole list. */
export interface WindowPage<T> {
  items: T[];
  positions: string[];
  /** Items lie beyond the page's last within the whole list (the Relay specification allows either reading). */
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  /** The whole list's length, whatever the window; null when the window did not ask for it (`counted` false). */
  totalCount: number | null;
}

/** A position that no page of this list answered: forged, or of another kind of list. */
export const positionFault = (field: 'after' | 'before') => invalid('invalid_cursor', `${field} is not a cursor of this list`, { field });
