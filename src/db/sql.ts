import type { Statement } from './raw';

/**
 * A piece of SQL: literal text from the code, and values that travel as parameters. Kept flat
 * (`texts` one longer than `values`) so nesting costs one copy and rendering one join. Only this
 * module makes one, so its text never comes from a value.
 */
class Fragment {
  constructor(
    readonly texts: readonly string[],
    readonly values: readonly unknown[],
  ) {}
}

export type Sql = Fragment;

/** Appends `fragment` to the text and parameters under construction. */
function append(texts: string[], params: unknown[], fragment: Sql): void {
  texts[texts.length - 1] += fragment.texts[0];
  for (let j = 1; j < fragment.texts.length; j++) texts.push(fragment.texts[j]);
  params.push(...fragment.values);
}

/** Template strings already checked: most are constants of the code, met on every call. */
const checked = new WeakSet<TemplateStringsArray>();

/**
 * `sql\`…${value}…\``: each value becomes a bound parameter; a `Sql` value (a fragment, a list,
 * an identifier) nests as SQL. Arrays are refused: a list is `sql.list` or `sql.array`, so that
 * how it expands is always written at the use.
 */
function template(strings: TemplateStringsArray, ...values: unknown[]): Sql {
  if (!checked.has(strings)) {
    // `?` is the drivers' placeholder: a literal one would take a parameter that is not its own.
    if (strings.some((s) => s.includes('?'))) throw new SyntaxError('SQL text may not contain "?": pass the value as a parameter');
    checked.add(strings);
  }
  const texts: string[] = [strings[0]];
  const params: unknown[] = [];
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value instanceof Fragment) {
      append(texts, params, value);
      texts[texts.length - 1] += strings[i + 1];
      continue;
    }
    if (Array.isArray(value)) throw new TypeError('an array in SQL must be sql.list (for in) or sql.array (for a typed array)');
    if (value === undefined) throw new TypeError('undefined is no SQL value: pass null');
    params.push(value);
    texts.push(strings[i + 1]);
  }
  return new Fragment(texts, params);
}

const COMMA = template`, `;

/** The fragments one after another, `separator` between them. */
function join(fragments: readonly Sql[], separator: Sql = COMMA): Sql {
  const texts = [''];
  const params: unknown[] = [];
  fragments.forEach((fragment, i) => {
    if (i) append(texts, params, separator);
    append(texts, params, fragment);
  });
  return new Fragment(texts, params);
}

const AND = template` and `;
const OR = template` or `;
const TRUE = template`true`;
const FALSE = template`false`;

/** Every condition holds (true when there is none); each is parenthesised, so any may hold an `or`. */
const and = (conditions: readonly Sql[]): Sql => (conditions.length ? join(conditions.map((c) => template`(${c})`), AND) : TRUE);

/** Some condition holds (false when there is none). */
const or = (conditions: readonly Sql[]): Sql => (conditions.length ? join(conditions.map((c) => template`(${c})`), OR) : FALSE);

/** The values as parameters separated by commas, for `in (…)`; `in ()` is no SQL, so an empty list throws. */
function list(values: readonly unknown[]): Sql {
  if (!values.length) throw new RangeError('an empty list is no SQL: leave the condition out, or use sql.array');
  return new Fragment(['', ...values.map((_, i) => (i === values.length - 1 ? '' : ', '))], values);
}

/** The closing text of a typed array, by the types it may have. */
const ARRAY_TYPES = {
  bigint: ']::bigint[]',
  boolean: ']::boolean[]',
  integer: ']::integer[]',
  numeric: ']::numeric[]',
  smallint: ']::smallint[]',
  text: ']::text[]',
  timestamptz: ']::timestamptz[]',
};

/**
 * A typed array of the values (for `= any (…)` and `unnest`); empty is fine. It travels as one
 * parameter, which the ORM's formatting writes as its items separated by commas, so the bid
 * round's arrays cost one placeholder each however many bids they carry.
 */
function array(values: readonly unknown[], type: keyof typeof ARRAY_TYPES): Sql {
  return new Fragment(['array[', ARRAY_TYPES[type]], [values.slice()]);
}

const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;

/**
 * A table or column named at run time (a sort key, say), chosen from `allowed`, which is fixed in
 * the code; any other name throws.
 */
function identifiers<const T extends string>(allowed: readonly T[]): (name: string) => Sql {
  const bad = allowed.find((name) => !IDENTIFIER.test(name));
  if (bad !== undefined) throw new SyntaxError(`"${bad}" is no plain identifier`);
  const quoted = new Map(allowed.map((name) => [name as string, new Fragment([`"${name}"`], [])]));
  return (name) => {
    const identifier = quoted.get(name);
    if (!identifier) throw new RangeError(`"${name}" is none of the identifiers ${allowed.join(', ')}`);
    return identifier;
  };
}

const ASC = template`asc`;
const DESC = template`desc`;

/** `order by` items: each column in the one direction. */
const orderBy = (columns: readonly Sql[], desc: boolean): Sql => join(columns.map((c) => template`${c} ${desc ? DESC : ASC}`));

/**
 * Keyset pagination: the rows strictly beyond `position` when read in `orderBy(columns, desc)`,
 * as one row comparison `(a, b) < (x, y)` (an index on the columns serves it).
 */
function beyond(columns: readonly Sql[], position: readonly Sql[], desc: boolean): Sql {
  if (columns.length !== position.length) throw new RangeError('a keyset position has one value per column');
  return desc ? template`(${join(columns)}) < (${join(position)})` : template`(${join(columns)}) > (${join(position)})`;
}

/** The `?`-placeholder text and parameters the ORM's `execute` and `db/raw.ts` take. */
function render(query: Sql): Statement & { params: unknown[] } {
  const text = query.texts.join('?');
  // Every `?` is a parameter's: two side by side, or one after a backslash, the ORM's formatting
  // would read as an identifier or a literal, and bind the rest to the wrong places.
  if (text.includes('??') || text.includes('\\?')) throw new SyntaxError('a parameter must not follow another one or a backslash');
  return { text, params: query.values.slice() };
}

export const sql = Object.assign(template, { and, or, join, list, array, identifiers, orderBy, beyond, render });
