import fc from 'fast-check';
import type { FilterKind, QuerySpec } from '../../../src/rest/query';
import { unicodeText } from './bad-values';

export type QueryPairs = [string, string][];

const anyValue = fc.oneof(unicodeText, fc.constantFrom('', '1', 'true', '-', ',', '\u0000'));

/** Every parameter name the endpoint takes, as sent. */
export function knownNames(spec: QuerySpec | undefined): string[] {
  const s = spec ?? {};
  const pages = s.page === 'cursor' ? ['page[cursor]', 'page[limit]'] : s.page === 'number' ? ['page[number]', 'page[size]'] : [];
  return [
    ...Object.keys(s.plain ?? {}),
    ...Object.keys(s.filters ?? {}).map((f) => `filter[${f}]`),
    ...pages,
    ...(s.sorts?.length ? ['sort'] : []),
    ...(s.includes?.length ? ['include'] : []),
  ];
}

/** A value the kind refuses (docs/rest.md, "Query parameters"), or nothing when every string would do. */
function badValueOf(kind: FilterKind): fc.Arbitrary<string> {
  switch (kind.kind) {
    case 'string':
      return fc.constantFrom('', 'x'.repeat((kind.max ?? 200) + 1), '🚗'.repeat(kind.max ?? 200), 'a\u0000b');
    case 'enum':
      return fc.oneof(fc.constantFrom('', ',', '__proto__'), unicodeText.map((s) => `~${s}`));
    case 'list':
      return fc.oneof(fc.constantFrom('', ',', 'a,,b', ' , '), kind.values || kind.item ? unicodeText.map((s) => `~${s}\u0001`) : fc.constant(','));
    case 'integer':
      return fc.constantFrom('', 'abc', '1.5', '1e3', '0x10', '9999999999999999', ' 1', '１');
    case 'boolean':
      return fc.constantFrom('', 'yes', '1', 'TRUE', 'truee', 'null');
    case 'range':
      return fc.constantFrom('', ',', '1', '1,2,3', 'a,b', '5,1', '1.5.5,', kind.of === 'integer' ? '1.5,' : '1.001,', '-,');
  }
}

/**
 * Query strings an endpoint must refuse with 400: an unknown parameter or filter, one given twice,
 * a malformed value of a known one, an unknown sort key or include, a page out of range.
 */
export function badQuery(spec: QuerySpec | undefined): fc.Arbitrary<QueryPairs> {
  const s = spec ?? {};
  const known = knownNames(s);
  const unknown = fc
    .oneof(
      fc.constantFrom('__proto__', 'constructor', 'toString', 'filter[__proto__]', 'filter[constructor]', 'filter[toString]', 'filter[]', 'filter', 'page[foo]', 'page[limit]x', 'sort[x]', 'limit', 'q', ''),
      unicodeText,
      unicodeText.map((s) => `filter[${s}]`),
    )
    .filter((name) => !known.includes(name) && !(name === 'sort' && s.sorts?.length) && !(name === 'include' && s.includes?.length));
  const options: fc.Arbitrary<QueryPairs>[] = [
    fc.tuple(unknown, anyValue).map(([n, v]) => [[n, v]]),
  ];
  if (known.length) {
    options.push(fc.tuple(fc.constantFrom(...known), anyValue, anyValue).map(([n, a, b]) => [[n, a], [n, b]]));
  }
  for (const [name, kind] of Object.entries(s.plain ?? {})) options.push(badValueOf(kind).map((v) => [[name, v]]));
  for (const [name, kind] of Object.entries(s.filters ?? {})) options.push(badValueOf(kind).map((v) => [[`filter[${name}]`, v]]));
  if (s.sorts?.length) options.push(fc.oneof(fc.constantFrom('', '-', '--price', 'id', '+start_time'), unicodeText).filter((v) => !s.sorts?.includes(v.replace(/^-/, ''))).map((v) => [['sort', v]]));
  if (s.includes?.length) options.push(fc.oneof(fc.constantFrom('', ',', '__proto__'), unicodeText).filter((v) => !s.includes?.includes(v)).map((v) => [['include', v]]));
  if (s.page === 'cursor') {
    options.push(fc.constantFrom('0', '-1', '101', '1.5', 'abc', '9999999', '').map((v) => [['page[limit]', v]]));
    options.push(fc.oneof(fc.constantFrom('', 'x', '__proto__', 'eyJ9', 'e30', 'W10', 'bnVsbA'), unicodeText, fc.base64String({ minLength: 4, maxLength: 200 })).map((v) => [['page[cursor]', v]]));
  }
  if (s.page === 'number') {
    options.push(fc.constantFrom('-1', '1.5', 'abc', '9999999999', '').map((v) => [['page[number]', v]]));
    options.push(fc.constantFrom('0', '-1', '101', '1.5', 'abc', '').map((v) => [['page[size]', v]]));
  }
  return fc.oneof(...options);
}

export function queryString(pairs: QueryPairs): string {
  return pairs.map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`).join('&');
}
