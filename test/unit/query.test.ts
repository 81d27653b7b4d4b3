import Decimal from 'decimal.js';
import { DomainError } from '../../src/core/errors';
import { parseQuery, type QuerySpec, type Range } from '../../src/rest/query';

type Raw = Record<string, string | string[] | undefined>;

const LOTS: QuerySpec = {
  plain: { currency: { kind: 'enum', values: ['USD', 'EUR'] } },
  filters: {
    search: { kind: 'string', max: 10 },
    state: { kind: 'enum', values: ['draft', 'active', 'closed'] },
    lot_type: { kind: 'list', values: ['eng', 'no_auction', 'auction'] },
    tags: { kind: 'list', item: /^[a-z]+$/ },
    platform_id: { kind: 'integer' },
    archived: { kind: 'boolean' },
    year: { kind: 'range', of: 'integer' },
    price: { kind: 'range', of: 'decimal' },
  },
  sorts: ['start_time', 'price', 'created_at'],
  defaultSort: '-created_at',
  includes: ['participants', 'callbacks', 'platform'],
  page: 'cursor',
};

const DOCS: QuerySpec = { plain: { in: { kind: 'string' } }, page: 'number', defaultPageSize: 10 };
const NOTIFICATIONS: QuerySpec = { sorts: ['created_at'], page: 'number' };
const PLAIN_ONLY: QuerySpec = {
  plain: { from: { kind: 'string', required: true }, amount: { kind: 'range', of: 'decimal' } },
};

/** Runs parseQuery expecting a DomainError; returns it. */
function fault(spec: QuerySpec, raw: Raw): DomainError {
  let caught: unknown;
  try {
    parseQuery(spec, raw);
  } catch (e) {
    caught = e;
  }
  if (!(caught instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(caught)}`);
  return caught;
}

/** The (parameter, code) pairs of a fault, in order. */
function faults(spec: QuerySpec, raw: Raw): [string, string][] {
  const err = fault(spec, raw);
  expect(err.status).toBe(400);
  expect(err.kind).toBe('invalid');
  return err.items.map((item) => {
    expect(typeof item.detail).toBe('string');
    expect(item.detail.length).toBeGreaterThan(0);
    const source = item.source as { parameter?: string } | undefined;
    return [source?.parameter ?? '<none>', item.code];
  });
}

function range(value: unknown): Range<Decimal> {
  return value as Range<Decimal>;
}

describe('parseQuery: accepted forms', () => {
  it('returns empty results and the defaults for an empty query', () => {
    const q = parseQuery(LOTS, {});
    expect(q.filters).toEqual({});
    expect(q.plain).toEqual({});
    expect([...q.include]).toEqual([]);
    expect(q.sort).toEqual({ key: 'created_at', desc: true });
    expect(q.page).toEqual({ cursor: null, limit: 15 });
  });

  it('ignores parameters whose value is undefined', () => {
    const q = parseQuery(LOTS, { bogus: undefined, 'filter[state]': undefined });
    expect(q.filters).toEqual({});
  });

  it('parses a string filter up to its maximum length', () => {
    expect(parseQuery(LOTS, { 'filter[search]': 'bmw x5' }).filters).toEqual({ search: 'bmw x5' });
    expect(parseQuery(LOTS, { 'filter[search]': 'a'.repeat(10) }).filters.search).toBe('aaaaaaaaaa');
  });

  it('parses an enum filter', () => {
    expect(parseQuery(LOTS, { 'filter[state]': 'active' }).filters).toEqual({ state: 'active' });
  });

  it('parses a list filter of allowed values, trimming items', () => {
    expect(parseQuery(LOTS, { 'filter[lot_type]': 'eng,no_auction' }).filters).toEqual({ lot_type: ['eng', 'no_auction'] });
    expect(parseQuery(LOTS, { 'filter[lot_type]': ' auction , eng' }).filters.lot_type).toEqual(['auction', 'eng']);
    expect(parseQuery(LOTS, { 'filter[lot_type]': 'eng' }).filters.lot_type).toEqual(['eng']);
  });

  it('parses a vocabulary filter in any letter case, and by alias, into the spelling of its values', () => {
    const spec: QuerySpec = {
      filters: {
        wheel: { kind: 'enum', values: ['left', 'right'], anyCase: true },
        fuel: { kind: 'list', values: ['gas', 'diesel'], anyCase: true, aliases: { GASOLINE: 'gas' } },
        strict: { kind: 'list', values: ['gas'], aliases: { GASOLINE: 'gas' } },
      },
    };
    expect(parseQuery(spec, { 'filter[wheel]': 'Right', 'filter[fuel]': 'DIESEL,gasoline', 'filter[strict]': 'GASOLINE' }).filters).toEqual({
      wheel: 'right',
      fuel: ['diesel', 'gas'],
      strict: ['gas'],
    });
    expect(faults(spec, { 'filter[strict]': 'Gasoline', 'filter[fuel]': 'coal' })).toEqual([
      ['filter[strict]', 'invalid_parameter'],
      ['filter[fuel]', 'invalid_parameter'],
    ]);
  });

  it('parses a list filter whose items match a pattern', () => {
    expect(parseQuery(LOTS, { 'filter[tags]': 'red,blue' }).filters.tags).toEqual(['red', 'blue']);
  });

  it('parses an integer filter, including negative values', () => {
    expect(parseQuery(LOTS, { 'filter[platform_id]': '42' }).filters).toEqual({ platform_id: 42 });
    expect(parseQuery(LOTS, { 'filter[platform_id]': '-7' }).filters.platform_id).toBe(-7);
  });

  it('parses boolean filters', () => {
    expect(parseQuery(LOTS, { 'filter[archived]': 'true' }).filters).toEqual({ archived: true });
    expect(parseQuery(LOTS, { 'filter[archived]': 'false' }).filters).toEqual({ archived: false });
  });

  it('parses integer ranges with both ends or either end empty', () => {
    expect(parseQuery(LOTS, { 'filter[year]': '2010,2015' }).filters.year).toEqual({ min: 2010, max: 2015 });
    expect(parseQuery(LOTS, { 'filter[year]': '2015,' }).filters.year).toEqual({ min: 2015, max: null });
    expect(parseQuery(LOTS, { 'filter[year]': ',2015' }).filters.year).toEqual({ min: null, max: 2015 });
    expect(parseQuery(LOTS, { 'filter[year]': '2015,2015' }).filters.year).toEqual({ min: 2015, max: 2015 });
  });

  it('parses decimal ranges into decimal values', () => {
    const both = range(parseQuery(LOTS, { 'filter[price]': '100.5,200' }).filters.price);
    expect(Decimal.isDecimal(both.min)).toBe(true);
    expect(both.min?.toFixed(2)).toBe('100.50');
    expect(both.max?.toFixed(2)).toBe('200.00');

    const low = range(parseQuery(LOTS, { 'filter[price]': '99.99,' }).filters.price);
    expect(low.min?.toFixed(2)).toBe('99.99');
    expect(low.max).toBeNull();

    const high = range(parseQuery(LOTS, { 'filter[price]': ',0.5' }).filters.price);
    expect(high.min).toBeNull();
    expect(high.max?.toFixed(2)).toBe('0.50');

    const equal = range(parseQuery(LOTS, { 'filter[price]': '10.5,10.50' }).filters.price);
    expect(equal.min?.toFixed(2)).toBe('10.50');
    expect(equal.max?.toFixed(2)).toBe('10.50');
  });

  it('parses plain parameters the endpoint names', () => {
    const q = parseQuery(LOTS, { currency: 'EUR' });
    expect(q.plain).toEqual({ currency: 'EUR' });
    expect(q.filters).toEqual({});
  });

  it('parses several filters together', () => {
    const q = parseQuery(LOTS, { 'filter[state]': 'closed', 'filter[archived]': 'false', 'filter[year]': '2000,' });
    expect(q.filters).toEqual({ state: 'closed', archived: false, year: { min: 2000, max: null } });
  });

  it('parses includes', () => {
    expect([...parseQuery(LOTS, { include: 'participants,callbacks' }).include].sort()).toEqual(['callbacks', 'participants']);
    expect([...parseQuery(LOTS, { include: 'platform' }).include]).toEqual(['platform']);
  });

  it('parses an ascending and a descending sort', () => {
    expect(parseQuery(LOTS, { sort: 'price' }).sort).toEqual({ key: 'price', desc: false });
    expect(parseQuery(LOTS, { sort: '-start_time' }).sort).toEqual({ key: 'start_time', desc: true });
  });

  it('falls back to the default sort, ascending or descending, or to none', () => {
    expect(parseQuery(LOTS, {}).sort).toEqual({ key: 'created_at', desc: true });
    expect(parseQuery({ ...LOTS, defaultSort: 'price' }, {}).sort).toEqual({ key: 'price', desc: false });
    expect(parseQuery(NOTIFICATIONS, {}).sort).toBeNull();
    expect(parseQuery(NOTIFICATIONS, { sort: '-created_at' }).sort).toEqual({ key: 'created_at', desc: true });
  });

  it('parses cursor pagination with defaults', () => {
    expect(parseQuery(LOTS, {}).page).toEqual({ cursor: null, limit: 15 });
    expect(parseQuery(LOTS, { 'page[limit]': '1' }).page).toEqual({ cursor: null, limit: 1 });
    expect(parseQuery(LOTS, { 'page[limit]': '100', 'page[cursor]': 'abc' }).page).toEqual({ cursor: 'abc', limit: 100 });
  });

  it('parses number/size pagination with defaults', () => {
    expect(parseQuery(DOCS, {}).page).toEqual({ number: 0, size: 10 });
    expect(parseQuery(NOTIFICATIONS, {}).page).toEqual({ number: 0, size: 15 });
    expect(parseQuery(DOCS, { 'page[number]': '3' }).page).toEqual({ number: 3, size: 10 });
    expect(parseQuery(DOCS, { 'page[number]': '0', 'page[size]': '100' }).page).toEqual({ number: 0, size: 100 });
    expect(parseQuery(NOTIFICATIONS, { 'page[size]': '1' }).page).toEqual({ number: 0, size: 1 });
  });

  it('gives no page for an endpoint without pagination', () => {
    expect(parseQuery(PLAIN_ONLY, { from: 'USD' }).page).toBeNull();
  });
});

describe('parseQuery: faults', () => {
  it('rejects an unknown parameter', () => {
    expect(faults(LOTS, { foo: 'bar' })).toEqual([['foo', 'unknown_parameter']]);
  });

  it('names the form the endpoint takes when an unknown parameter is one of its names in another form', () => {
    const detail = (spec: QuerySpec, raw: Raw) => fault(spec, raw).items.map((item) => item.detail);
    expect(detail(LOTS, { state: 'active' })).toEqual(['state is not accepted by this endpoint; use filter[state]']);
    expect(detail(LOTS, { 'filter[currency]': 'USD' })).toEqual(['currency is not a filter of this endpoint; use currency']);
    expect(detail(LOTS, { limit: '5', cursor: 'abc' })).toEqual([
      'limit is not accepted by this endpoint; use page[limit]',
      'cursor is not accepted by this endpoint; use page[cursor]',
    ]);
    expect(detail(DOCS, { size: '5' })).toEqual(['size is not accepted by this endpoint; use page[size]']);
    expect(detail(LOTS, { 'page[state]': '1' })).toEqual(['page[state] is not accepted by this endpoint; use filter[state]']);
  });

  it('lists what the endpoint takes when no form of the name is taken', () => {
    expect(fault(LOTS, { foo: 'bar' }).items[0].detail).toBe(
      'foo is not accepted by this endpoint; it takes currency, sort, include, page[cursor], page[limit], filter[search], filter[state], filter[lot_type], filter[tags], filter[platform_id], filter[archived], filter[year], filter[price]',
    );
    expect(fault(LOTS, { 'filter[nothing]': '1' }).items[0].detail).toBe('nothing is not a filter of this endpoint; its filters: search, state, lot_type, tags, platform_id, archived, year, price');
    expect(fault(DOCS, { limit: '5' }).items[0].detail).toBe('limit is not accepted by this endpoint; it takes in, page[number], page[size]');
    expect(fault(DOCS, { 'filter[state]': 'x' }).items[0].detail).toBe('state is not a filter of this endpoint; it has no filters');
    expect(fault({}, { q: 'x' }).items[0].detail).toBe('q is not accepted by this endpoint; it takes no query parameters');
  });

  it('names the nearest valid name of a misspelt one, in the form it is written', () => {
    const detail = (spec: QuerySpec, raw: Raw) => fault(spec, raw).items[0].detail;
    expect(detail(LOTS, { 'filter[stat]': 'active' })).toBe('stat is not a filter of this endpoint (did you mean state?); its filters: search, state, lot_type, tags, platform_id, archived, year, price');
    expect(detail(LOTS, { sotr: 'price' })).toMatch(/^sotr is not accepted by this endpoint \(did you mean sort\?\); it takes currency, sort, /);
    expect(detail(LOTS, { archive: 'true' })).toMatch(/^archive is not accepted by this endpoint \(did you mean filter\[archived\]\?\); it takes /);
    expect(detail(LOTS, { sort: '-prcie' })).toBe('sort must be one of start_time, price, created_at, optionally with a leading - (did you mean -price?)');
    expect(detail(LOTS, { include: 'platfrom' })).toBe('unknown include platfrom (did you mean platform?); allowed: participants, callbacks, platform');
  });

  it('tells a caller who pages in the other scheme which parameters this endpoint pages with', () => {
    expect(fault(LOTS, { 'page[size]': '5' }).items[0].detail).toBe('page[size] is not accepted by this endpoint; it pages with page[cursor] and page[limit]');
    expect(fault(DOCS, { 'page[limit]': '5' }).items[0].detail).toBe('page[limit] is not accepted by this endpoint; it pages with page[number] and page[size]');
    expect(fault(PLAIN_ONLY, { from: 'x', 'page[size]': '5' }).items[0].detail).toBe('page[size] is not accepted by this endpoint; it is not paged');
  });

  it('lists the valid names once however many unknown ones a query holds, so an answer stays in proportion to the query', () => {
    const raw = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`filter[x${i}]`, '1']));
    const details = fault(LOTS, raw).items.map((item) => item.detail);
    expect(details).toHaveLength(500);
    expect(details.filter((d) => d.includes('its filters:'))).toHaveLength(1);
    expect(details[499]).toBe('x499 is not a filter of this endpoint');
  });

  it('rejects sort and include on an endpoint that has none', () => {
    expect(faults(DOCS, { sort: 'created_at' })).toEqual([['sort', 'unknown_parameter']]);
    expect(faults(DOCS, { include: 'lot' })).toEqual([['include', 'unknown_parameter']]);
  });

  it('rejects an unknown filter', () => {
    expect(faults(LOTS, { 'filter[bogus]': '1' })).toEqual([['filter[bogus]', 'unknown_filter']]);
    expect(faults(DOCS, { 'filter[state]': 'active' })).toEqual([['filter[state]', 'unknown_filter']]);
  });

  it('rejects an unknown include, also among known ones', () => {
    expect(faults(LOTS, { include: 'bogus' })).toEqual([['include', 'unknown_include']]);
    expect(faults(LOTS, { include: 'participants,bogus' })).toEqual([['include', 'unknown_include']]);
  });

  it('rejects an unknown sort key, with or without -', () => {
    expect(faults(LOTS, { sort: 'bogus' })).toEqual([['sort', 'unknown_sort']]);
    expect(faults(LOTS, { sort: '-bogus' })).toEqual([['sort', 'unknown_sort']]);
    expect(faults(LOTS, { sort: '--price' })).toEqual([['sort', 'unknown_sort']]);
    expect(faults(LOTS, { sort: 'price,created_at' })).toEqual([['sort', 'unknown_sort']]);
  });

  it('rejects a duplicated parameter given as an array', () => {
    expect(faults(LOTS, { 'filter[state]': ['draft', 'active'] })).toEqual([['filter[state]', 'duplicate_parameter']]);
    expect(faults(LOTS, { sort: ['price', '-price'] })).toEqual([['sort', 'duplicate_parameter']]);
    expect(faults(LOTS, { 'page[limit]': ['5', '5'] })).toEqual([['page[limit]', 'duplicate_parameter']]);
  });

  it.each([
    ['string (empty)', 'filter[search]', ''],
    ['string (too long)', 'filter[search]', 'a'.repeat(11)],
    ['enum', 'filter[state]', 'archived'],
    ['enum (case)', 'filter[state]', 'Active'],
    ['list (value not allowed)', 'filter[lot_type]', 'eng,bogus'],
    ['list (empty item)', 'filter[lot_type]', 'eng,,auction'],
    ['list (empty)', 'filter[lot_type]', ''],
    ['list (item pattern)', 'filter[tags]', 'red,Blue'],
    ['integer (word)', 'filter[platform_id]', 'abc'],
    ['integer (decimal)', 'filter[platform_id]', '1.5'],
    ['integer (empty)', 'filter[platform_id]', ''],
    ['integer (exponent)', 'filter[platform_id]', '1e3'],
    ['boolean (1)', 'filter[archived]', '1'],
    ['boolean (case)', 'filter[archived]', 'TRUE'],
    ['boolean (yes)', 'filter[archived]', 'yes'],
    ['integer range (no comma)', 'filter[year]', '2015'],
    ['integer range (both ends empty)', 'filter[year]', ','],
    ['integer range (three parts)', 'filter[year]', '1,2,3'],
    ['integer range (bad end)', 'filter[year]', '2015,abc'],
    ['integer range (decimal end)', 'filter[year]', '2015.5,'],
    ['decimal range (bad end)', 'filter[price]', 'abc,10'],
    ['decimal range (three decimals)', 'filter[price]', '1.234,'],
    ['decimal range (negative)', 'filter[price]', '-1,5'],
    ['decimal range (both ends empty)', 'filter[price]', ','],
    ['plain enum', 'currency', 'GBP'],
  ])('rejects a malformed %s value', (_label, parameter, value) => {
    expect(faults(LOTS, { [parameter]: value })).toEqual([[parameter, 'invalid_parameter']]);
  });

  it('rejects a range whose min exceeds its max', () => {
    expect(faults(LOTS, { 'filter[year]': '2020,2015' })).toEqual([['filter[year]', 'invalid_parameter']]);
    expect(faults(LOTS, { 'filter[price]': '200,100.5' })).toEqual([['filter[price]', 'invalid_parameter']]);
    expect(faults(LOTS, { 'filter[price]': '10.01,10' })).toEqual([['filter[price]', 'invalid_parameter']]);
  });

  it.each(['0', '101', 'abc', '-1', '1.5', ''])('rejects page[limit]=%j', (value) => {
    expect(faults(LOTS, { 'page[limit]': value })).toEqual([['page[limit]', 'invalid_page']]);
  });

  it.each(['101', '0', 'x'])('rejects page[size]=%j', (value) => {
    expect(faults(DOCS, { 'page[size]': value })).toEqual([['page[size]', 'invalid_page']]);
  });

  it.each(['-1', 'abc', '1.5', ''])('rejects page[number]=%j', (value) => {
    expect(faults(DOCS, { 'page[number]': value })).toEqual([['page[number]', 'invalid_page']]);
  });

  it('rejects page parameters of the other pagination style', () => {
    expect(faults(LOTS, { 'page[number]': '1' })).toEqual([['page[number]', 'unknown_parameter']]);
    expect(faults(LOTS, { 'page[size]': '10' })).toEqual([['page[size]', 'unknown_parameter']]);
    expect(faults(DOCS, { 'page[cursor]': 'abc' })).toEqual([['page[cursor]', 'unknown_parameter']]);
    expect(faults(DOCS, { 'page[limit]': '10' })).toEqual([['page[limit]', 'unknown_parameter']]);
    expect(faults(PLAIN_ONLY, { from: 'USD', 'page[limit]': '10' })).toEqual([['page[limit]', 'unknown_parameter']]);
    expect(faults(LOTS, { 'page[offset]': '10' })).toEqual([['page[offset]', 'unknown_parameter']]);
  });

  it('rejects a missing required filter or plain parameter', () => {
    const spec: QuerySpec = { filters: { lot_id: { kind: 'integer', required: true }, state: { kind: 'string' } } };
    expect(faults(spec, {})).toEqual([['filter[lot_id]', 'missing_parameter']]);
    expect(faults(spec, { 'filter[state]': 'x' })).toEqual([['filter[lot_id]', 'missing_parameter']]);
    expect(parseQuery(spec, { 'filter[lot_id]': '5' }).filters).toEqual({ lot_id: 5 });
    expect(faults(PLAIN_ONLY, {})).toEqual([['from', 'missing_parameter']]);
  });

  it('reports a malformed or duplicated required parameter once, not also as missing', () => {
    const spec: QuerySpec = { filters: { lot_id: { kind: 'integer', required: true } } };
    expect(faults(spec, { 'filter[lot_id]': 'x' })).toEqual([['filter[lot_id]', 'invalid_parameter']]);
    expect(faults(spec, { 'filter[lot_id]': ['1', '2'] })).toEqual([['filter[lot_id]', 'duplicate_parameter']]);
  });

  it('lists one item per faulty parameter when there are several faults', () => {
    const err = fault(LOTS, {
      foo: '1',
      'filter[bogus]': 'x',
      'filter[year]': '2020,2015',
      'filter[archived]': 'maybe',
      sort: 'bogus',
      include: 'bogus',
      currency: ['USD', 'EUR'],
      'page[limit]': '0',
      'page[size]': '5',
    });
    expect(err.status).toBe(400);
    const pairs = err.items.map((i) => [(i.source as { parameter: string }).parameter, i.code]);
    expect(pairs.sort()).toEqual(
      [
        ['foo', 'unknown_parameter'],
        ['filter[bogus]', 'unknown_filter'],
        ['filter[year]', 'invalid_parameter'],
        ['filter[archived]', 'invalid_parameter'],
        ['sort', 'unknown_sort'],
        ['include', 'unknown_include'],
        ['currency', 'duplicate_parameter'],
        ['page[limit]', 'invalid_page'],
        ['page[size]', 'unknown_parameter'],
      ].sort(),
    );
    expect(err.code).toBe(err.items[0].code);
  });

  it('reports both page[number] and page[size] when both are bad', () => {
    expect(faults(DOCS, { 'page[number]': '-1', 'page[size]': '101' })).toEqual([
      ['page[number]', 'invalid_page'],
      ['page[size]', 'invalid_page'],
    ]);
  });
});
