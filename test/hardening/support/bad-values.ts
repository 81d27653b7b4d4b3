import fc from 'fast-check';

/** Strings that stay valid JSON and URL text but carry every script and width: names may hold them, ids and enums may not. */
export const unicodeText = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 });

/** Far past any length a field of ours takes (every text column is bounded). */
export const hugeText = fc.oneof(
  fc.constantFrom('x', 'ü', '日本', '🚗', '\u202e', 'a\u0301').map((s) => s.repeat(Math.ceil(20_000 / s.length))),
  unicodeText.map((s) => s.repeat(Math.ceil(20_000 / s.length))),
);

/**
 * A bad id as one path segment. A bare `.` or `..` is a dot-segment that every client resolves away
 * before sending (RFC 3986 §5.2.4: `/accounts/..` is sent as `/`), so it goes percent-encoded and
 * reaches the route as the id it is meant to be.
 */
export const pathSegment = (id: string) => (/^\.{1,2}$/.test(id) ? id.replace(/\./g, '%2E') : encodeURIComponent(id));

/** Path segments that are neither integer ids nor account keys nor document ids. */
export const badId = fc.oneof(
  fc.constantFrom(
    'abc',
    '-1',
    '1.5',
    '1e3',
    '0x1f',
    ' 1',
    '+1',
    '99999999999999999999',
    '2147483648',
    '9223372036854775808',
    '-9223372036854775809',
    'GAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    'SAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    '..',
    "1' or '1'='1",
    '__proto__',
    'constructor',
    'null',
    'undefined',
    'NaN',
    'Infinity',
    '\u0000',
    '1\u0000',
  ),
  unicodeText,
  fc.string({ minLength: 300, maxLength: 2000 }),
);

/** Prices the wire must refuse: negative, not decimal, more than two decimals, beyond numeric(20,2), or no string at all. */
export const badPrice = fc.oneof(
  fc.constantFrom('-1', '-0.01', 'abc', '1.001', '0.999', '1e3', '1E+2', '0x10', 'NaN', 'Infinity', '-Infinity', '', ' ', '1,5', '١٢٣', '1.2.3'),
  fc.constantFrom('100000000000000000000', '999999999999999999999.99', '1'.repeat(400)),
  fc.double({ noNaN: false }).map((d) => `${d}`).filter((s) => !/^\d+(\.\d{1,2})?$/.test(s)),
  fc.bigInt({ min: 10n ** 18n, max: 10n ** 40n }).map((n) => n.toString()),
  fc.integer({ min: 1, max: 1_000_000 }).map((n) => `${n}.${String(n).padStart(3, '0')}`),
  fc.constantFrom(-1, 1.001, 1e300, true, null, [], {}, ['1'], { amount: '1' }),
);

/** Integers out of every range we take: negative, fractional, beyond 32 and 64 bits, or another type. */
export const badInteger = fc.oneof(
  fc.constantFrom(-1, -2147483649, 2147483648, 2 ** 53 + 2, 1e20, -1e20, 1e308, 0.5, 1.5, -0.0001),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Number.isInteger(d)),
  fc.constantFrom('12abc', '1.5', '', true, [], {}, [1]),
);

/** Values no text field takes: other JSON types, or far too long. */
export const badText = fc.oneof(
  hugeText,
  fc.constantFrom(12, -1, 1.5, true, false, [], {}, ['a'], { a: 'b' }),
);

/** Any JSON value at all, nested and wide, including inherited member names as keys. */
export const anyJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, true, false, 0, -1, 1e308, '', '__proto__', 'a\u0000b'),
    unicodeText,
    badPrice,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(unicodeText, fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'data', 'attributes', 'id', 'type')), tie('value'), {
      maxKeys: 4,
    }),
  ),
})).value;

/** Bodies that are no JSON at all, sent as JSON. */
export const malformedJson = fc.oneof(
  fc.constantFrom('{', '}', '{"data":', '{"data": {"type": "lots",}}', "{'data': 1}", 'nul', 'undefined', '{"a":1}{"b":2}', '\ufeff{}', '[1,]', '{"a": NaN}', '01'),
  fc.string({ minLength: 1, maxLength: 200 }).filter((s) => {
    try {
      JSON.parse(s);
      return false;
    } catch {
      return true;
    }
  }),
  fc.integer({ min: 2000, max: 20_000 }).map((depth) => '['.repeat(depth)),
);

/** Top-level documents that cannot be a JSON:API request document. */
export const notADocument = fc.oneof(
  fc.constantFrom(null, 0, -1, 'data', true, [], [{ data: {} }], {}, { data: null }, { data: 1 }, { data: 'x' }, { data: true }, { errors: [] }),
  fc.record({ data: fc.record({ type: fc.constantFrom(1, true, {}, []), attributes: fc.constantFrom('x', 1, true, [[]]) }) }),
);

/** The one place a bad value of the kind an example value has comes from. */
export function badValueLike(example: unknown, key: string): fc.Arbitrary<unknown> {
  if (PRICE_FIELD.test(key)) return badPrice;
  if (typeof example === 'number') return badInteger;
  if (typeof example === 'boolean') return fc.constantFrom('true', 1, 0, 'yes', null, [], {});
  if (Array.isArray(example)) return fc.oneof(fc.constantFrom('a', 1, {}, true), fc.array(fc.constantFrom(1, {}, [], null, true), { minLength: 1, maxLength: 3 }), fc.constant(Array(2000).fill('x')));
  if (example !== null && typeof example === 'object') return fc.constantFrom('x', 1, true, [], [{}]);
  return badText;
}

/** The wire's price fields (docs/rest.md, "Documents"). */
export const PRICE_FIELD = /(^|_)(price|deposit|min_step|max_step|amount|max_amount|bid|fee)$/;
