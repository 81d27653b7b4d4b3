import { invalid } from '../../core/errors';

/** The version of the cursors' form: a later form may read this one, and refuses any other. */
const FORM = 'c1';

/**
 * A connection's cursor: opaque to clients (they pass it back as `after`/`before`, and may not
 * build one), bound to the list it was made for, so that a cursor of another list, sort or type is
 * refused rather than read as a position of this one. `position` is the list's own: an index, an
 * id, or a listing's keyset cursor.
 */
export function encodeListCursor(list: string, position: string): string {
  return Buffer.from(`${FORM}\u0000${list}\u0000${position}`, 'utf8').toString('base64url');
}

/** The position of a cursor of `list`, given as the argument `field`; a cursor that is not one of the list's is `invalid_cursor` naming the argument. */
export function decodeListCursor(list: string, cursor: string, field: string): string {
  const fault = () => invalid('invalid_cursor', `${field} is not a cursor of this list`, { field });
  if (cursor.length > 1024 || !/^[A-Za-z0-9_-]*$/.test(cursor)) throw fault();
  const [form, of, position, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('\u0000');
  if (form !== FORM || of !== list || position === undefined || position === '' || rest.length) throw fault();
  return position;
}
