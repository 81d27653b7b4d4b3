import { DomainError } from '../../src/core/errors';
import { decodeCursor, encodeCursor, keysetPage, planKeyset, type CursorPosition, type KeysetPlan, type KeysetRequest } from '../../src/core/cursors';
import type { KeysetPage } from '../../src/core/page';
import { cursorLinks, numberLinks, pageLink } from '../../src/rest/pagination';

function expectInvalidCursor(fn: () => unknown): void {
  let caught: unknown;
  try {
    fn();
  } catch (e) {
    caught = e;
  }
  expect(caught).toBeInstanceOf(DomainError);
  const err = caught as DomainError;
  expect(err.status).toBe(400);
  expect(err.items).toHaveLength(1);
  expect(err.items[0].code).toBe('invalid_cursor');
  expect(err.items[0].source).toEqual({ field: 'page.cursor' });
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('cursors', () => {
  it.each<CursorPosition>([
    { key: 'price', value: 1250, id: 'lot-7', dir: 'next' },
    { key: 'start_time', value: '2026-11-22T10:00:00Z', id: '42', dir: 'prev' },
    { key: 'created_at', value: null, id: 'x', dir: 'next' },
    { key: 'name', value: 'ünïcode, "quotes" & [brackets]', id: 'id/with+chars', dir: 'prev' },
  ])('round-trips %j', (position) => {
    const cursor = encodeCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor, position.key)).toEqual(position);
  });

  it('is opaque: the cursor text does not show the position', () => {
    const cursor = encodeCursor({ key: 'price', value: 1250, id: 'lot-7', dir: 'next' });
    expect(cursor).not.toContain('price');
    expect(cursor).not.toContain('lot-7');
  });

  it.each([
    ['garbage', 'not a cursor at all'],
    ['empty', ''],
    ['punctuation', '!!!'],
    ['an object', b64({ key: 'price', value: 1, id: 'a', dir: 1 })],
    ['three elements', b64(['price', 1, 'a'])],
    ['five elements', b64(['price', 1, 'a', 1, 0])],
    ['a numeric id', b64(['price', 1, 7, 1])],
    ['a bad direction', b64(['price', 1, 'a', 2])],
    ['a string direction', b64(['price', 1, 'a', 'next'])],
    ['an object value', b64(['price', { x: 1 }, 'a', 1])],
    ['a boolean value', b64(['price', true, 'a', 1])],
    ['JSON null', b64(null)],
  ])('rejects %s with invalid_cursor', (_label, raw) => {
    expectInvalidCursor(() => decodeCursor(raw, 'price'));
  });

  it('rejects a cursor made for another sort key', () => {
    const cursor = encodeCursor({ key: 'created_at', value: '2026-01-01T00:00:00Z', id: 'a', dir: 'next' });
    expect(decodeCursor(cursor, 'created_at').id).toBe('a');
    expectInvalidCursor(() => decodeCursor(cursor, 'price'));
  });

  it('rejects a tampered cursor', () => {
    const cursor = encodeCursor({ key: 'price', value: 1250, id: 'lot-7', dir: 'next' });
    const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
    expectInvalidCursor(() => decodeCursor(flip(cursor, 0), 'price'));
    expectInvalidCursor(() => decodeCursor(flip(cursor, cursor.length - 1), 'price'));
    expectInvalidCursor(() => decodeCursor(cursor.slice(0, cursor.length - 4), 'price'));
  });

  it('planKeyset rejects a bad cursor with invalid_cursor', () => {
    expectInvalidCursor(() => planKeyset({ key: 'price', desc: false, cursor: 'garbage', limit: 5 }));
    const other = encodeCursor({ key: 'created_at', value: 1, id: 'a', dir: 'next' });
    expectInvalidCursor(() => planKeyset({ key: 'price', desc: false, cursor: other, limit: 5 }));
  });
});

interface Row {
  id: string;
  price: number;
}

// 23 rows, stored out of order, with runs of equal prices (ties broken by id).
const PRICES = [30, 10, 20, 10, 50, 30, 30, 40, 10, 20, 60, 50, 20, 70, 10, 30, 40, 40, 60, 20, 70, 10, 50];
const TABLE: Row[] = PRICES.map((price, i) => ({ id: `r${String(i + 1).padStart(2, '0')}`, price }));

function compare(a: { value: string | number | null; id: string }, b: { value: string | number | null; id: string }): number {
  const av = a.value as number;
  const bv = b.value as number;
  if (av !== bv) return av < bv ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

const positionOf = (row: Row) => ({ value: row.price, id: row.id });

/** What the database would do with a plan: rows strictly beyond `after` in (value, id) order, sorted, limited. */
function select(plan: KeysetPlan): Row[] {
  const sign = plan.desc ? -1 : 1;
  return TABLE.filter((row) => plan.after === null || sign * compare(positionOf(row), plan.after) > 0)
    .sort((a, b) => sign * compare(positionOf(a), positionOf(b)))
    .slice(0, plan.take);
}

function read(desc: boolean, limit: number, cursor: string | null): KeysetPage<Row> {
  const req: KeysetRequest = { key: 'price', desc, cursor, limit };
  const plan = planKeyset(req);
  expect(plan.take).toBe(limit + 1);
  return keysetPage(req, plan, select(plan), positionOf);
}

function ordered(desc: boolean): string[] {
  const sign = desc ? -1 : 1;
  return [...TABLE].sort((a, b) => sign * compare(positionOf(a), positionOf(b))).map((r) => r.id);
}

function walkForward(desc: boolean, limit: number): KeysetPage<Row>[] {
  const pages = [read(desc, limit, null)];
  while (pages[pages.length - 1].next !== null) {
    if (pages.length > TABLE.length + 1) throw new Error('walking next does not end');
    pages.push(read(desc, limit, pages[pages.length - 1].next));
  }
  return pages;
}

const ids = (page: KeysetPage<Row>) => page.items.map((r) => r.id);

describe('keyset pagination over an in-memory table', () => {
  it('the table has duplicate sort values', () => {
    expect(TABLE).toHaveLength(23);
    expect(new Set(PRICES).size).toBeLessThan(PRICES.length);
  });

  it('plans the first page from the start in the requested direction', () => {
    expect(planKeyset({ key: 'price', desc: true, cursor: null, limit: 5 })).toEqual({ desc: true, after: null, take: 6, backwards: false });
    expect(planKeyset({ key: 'price', desc: false, cursor: null, limit: 5 })).toEqual({ desc: false, after: null, take: 6, backwards: false });
  });

  it('plans a prev cursor as a read in the opposite direction from its position', () => {
    const cursor = encodeCursor({ key: 'price', value: 30, id: 'r06', dir: 'prev' });
    expect(planKeyset({ key: 'price', desc: false, cursor, limit: 5 })).toEqual({
      desc: true,
      after: { value: 30, id: 'r06' },
      take: 6,
      backwards: true,
    });
  });

  describe.each([
    ['ascending', false],
    ['descending', true],
  ])('%s', (_label, desc) => {
    it.each([1, 4, 5, 7, 22])('walking next with limit %i visits every row exactly once, in order', (limit) => {
      const pages = walkForward(desc, limit);
      const expectedPages = Math.ceil(TABLE.length / limit);
      expect(pages).toHaveLength(expectedPages);
      expect(pages.flatMap(ids)).toEqual(ordered(desc));
      pages.forEach((page, i) => {
        expect(page.items).toHaveLength(i < expectedPages - 1 ? limit : TABLE.length - limit * (expectedPages - 1));
        expect(page.prev === null).toBe(i === 0);
        expect(page.next === null).toBe(i === expectedPages - 1);
      });
    });

    it.each([1, 4, 5, 7, 22])('walking prev back from the last page with limit %i gives the same pages in reverse', (limit) => {
      const forward = walkForward(desc, limit);
      const backward = [forward[forward.length - 1]];
      while (backward[backward.length - 1].prev !== null) {
        if (backward.length > TABLE.length + 1) throw new Error('walking prev does not end');
        backward.push(read(desc, limit, backward[backward.length - 1].prev));
      }
      expect(backward.map(ids)).toEqual([...forward].reverse().map(ids));
      const first = backward[backward.length - 1];
      expect(first.prev).toBeNull();
      expect(first.next).not.toBeNull();
      // Every page reached backwards can go forward again to the page after it.
      for (let i = 1; i < backward.length; i++) {
        expect(backward[i].next).not.toBeNull();
        expect(ids(read(desc, limit, backward[i].next))).toEqual(ids(backward[i - 1]));
      }
    });

    it.each([23, 100])('a single page (limit %i) has neither next nor prev', (limit) => {
      const page = read(desc, limit, null);
      expect(ids(page)).toEqual(ordered(desc));
      expect(page.next).toBeNull();
      expect(page.prev).toBeNull();
    });
  });
});

describe('links', () => {
  it('pageLink sets the page parameter, keeps every other parameter and shows brackets unencoded', () => {
    const query = new URLSearchParams('filter[state]=active&sort=-price&include=participants&page[limit]=5');
    expect(pageLink('/lots', query, { cursor: 'abc_-1' })).toBe(
      '/lots?filter[state]=active&sort=-price&include=participants&page[limit]=5&page[cursor]=abc_-1',
    );
  });

  it('pageLink replaces an existing page parameter in place and leaves the given query alone', () => {
    const query = new URLSearchParams('page[cursor]=old&filter[state]=active');
    expect(pageLink('/lots', query, { cursor: 'new' })).toBe('/lots?page[cursor]=new&filter[state]=active');
    expect(query.get('page[cursor]')).toBe('old');
  });

  it('pageLink keeps values with commas, spaces and brackets equal after decoding', () => {
    const query = new URLSearchParams();
    query.set('filter[lot_type]', 'eng,no_auction');
    query.set('filter[search]', 'bmw x5 [2015]');
    query.set('filter[year]', '2015,');
    const link = pageLink('/lots', query, { number: 2, size: 10 });
    expect(link.startsWith('/lots?')).toBe(true);
    expect(link).not.toMatch(/%5B|%5D/i);
    const back = new URLSearchParams(link.slice('/lots?'.length));
    expect([...back.entries()]).toEqual([
      ['filter[lot_type]', 'eng,no_auction'],
      ['filter[search]', 'bmw x5 [2015]'],
      ['filter[year]', '2015,'],
      ['page[number]', '2'],
      ['page[size]', '10'],
    ]);
  });

  it('pageLink without any parameter is the bare path', () => {
    expect(pageLink('/lots', new URLSearchParams(), {})).toBe('/lots');
  });

  it('cursorLinks carries next and prev only when present', () => {
    const query = new URLSearchParams('sort=price');
    expect(cursorLinks('/lots', query, { next: 'N', prev: 'P' }, '/lots?sort=price')).toEqual({
      self: '/lots?sort=price',
      next: '/lots?sort=price&page[cursor]=N',
      prev: '/lots?sort=price&page[cursor]=P',
    });
    expect(cursorLinks('/lots', query, { next: null, prev: 'P' }, 'self')).toEqual({
      self: 'self',
      prev: '/lots?sort=price&page[cursor]=P',
    });
    expect(cursorLinks('/lots', query, { next: 'N', prev: null }, 'self')).toEqual({
      self: 'self',
      next: '/lots?sort=price&page[cursor]=N',
    });
  });

  describe('numberLinks', () => {
    const query = new URLSearchParams('in=lot&page[number]=0&page[size]=10');
    const link = (n: number) => `/documents?in=lot&page[number]=${n}&page[size]=10`;

    it('first page: first, last and next, no prev', () => {
      expect(numberLinks('/documents', query, 0, 10, 35, 'self')).toEqual({ self: 'self', first: link(0), last: link(3), next: link(1) });
    });

    it('middle page: next and prev', () => {
      expect(numberLinks('/documents', query, 1, 10, 35, 'self')).toEqual({
        self: 'self',
        first: link(0),
        last: link(3),
        next: link(2),
        prev: link(0),
      });
    });

    it('last page: prev, no next', () => {
      expect(numberLinks('/documents', query, 3, 10, 35, 'self')).toEqual({ self: 'self', first: link(0), last: link(3), prev: link(2) });
    });

    it('an exact multiple of the size has no empty trailing page', () => {
      expect(numberLinks('/documents', query, 2, 10, 30, 'self')).toEqual({ self: 'self', first: link(0), last: link(2), prev: link(1) });
    });

    it('no matches: first and last are page 0, neither next nor prev', () => {
      expect(numberLinks('/documents', query, 0, 10, 0, 'self')).toEqual({ self: 'self', first: link(0), last: link(0) });
    });

    it('a page beyond the last has no next and a prev to the last page', () => {
      expect(numberLinks('/documents', query, 7, 10, 30, 'self')).toEqual({ self: 'self', first: link(0), last: link(2), prev: link(2) });
    });

    it('adds the page parameters when the query had none', () => {
      expect(numberLinks('/notifications', new URLSearchParams(), 0, 15, 16, 'self')).toEqual({
        self: 'self',
        first: '/notifications?page[number]=0&page[size]=15',
        last: '/notifications?page[number]=1&page[size]=15',
        next: '/notifications?page[number]=1&page[size]=15',
      });
    });
  });
});
