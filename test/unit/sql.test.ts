import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import { DomainError } from '../../src/core/errors';
import { keysetClauses } from '../../src/db/keyset';
import { sql } from '../../src/db/sql';

const render = sql.render;

describe('sql builder', () => {
  it('turns every value into a parameter, in the order of the text', () => {
    const name = "O'Brien; drop table lots";
    expect(render(sql`select * from accounts where name = ${name} and id > ${7}`)).toEqual({
      text: 'select * from accounts where name = ? and id > ?',
      params: [name, 7],
    });
  });

  it('nests fragments with their parameters where they stand', () => {
    const inner = sql`a = ${1} and b = ${2}`;
    expect(render(sql`${inner} or (${inner}) or c = ${3}`)).toEqual({ text: 'a = ? and b = ? or (a = ? and b = ?) or c = ?', params: [1, 2, 1, 2, 3] });
    expect(render(sql`${sql`x`}`)).toEqual({ text: 'x', params: [] });
  });

  it('joins conditions with and/or, each parenthesised, and has a neutral value for none', () => {
    const conditions = [sql`a = ${1}`, sql`b = ${2} or c = ${3}`];
    expect(render(sql.and(conditions))).toEqual({ text: '(a = ?) and (b = ? or c = ?)', params: [1, 2, 3] });
    expect(render(sql.or(conditions))).toEqual({ text: '(a = ?) or (b = ? or c = ?)', params: [1, 2, 3] });
    expect(render(sql.and([])).text).toBe('true');
    expect(render(sql.or([])).text).toBe('false');
  });

  it('expands a list into one parameter per value, and refuses an empty one', () => {
    expect(render(sql`id in (${sql.list(['1', '2', '3'])})`)).toEqual({ text: 'id in (?, ?, ?)', params: ['1', '2', '3'] });
    expect(render(sql`id in (${sql.list(['1'])})`)).toEqual({ text: 'id in (?)', params: ['1'] });
    expect(() => sql.list([])).toThrow(RangeError);
  });

  it('writes a typed array as one parameter, which the ORM formats item by item, empty or not', () => {
    const platform = new PostgreSqlPlatform();
    const formatted = (q: ReturnType<typeof render>) => platform.formatQuery(q.text, q.params);
    expect(render(sql`= any (${sql.array(['a', 'b'], 'text')})`)).toEqual({ text: '= any (array[?]::text[])', params: [['a', 'b']] });
    expect(formatted(render(sql`= any (${sql.array(["a'b", 'c'], 'text')})`))).toBe("= any (array['a''b', 'c']::text[])");
    expect(formatted(render(sql.array([], 'bigint')))).toBe('array[]::bigint[]');
  });

  it('refuses a bare array, undefined, and a literal "?" in the text', () => {
    expect(() => sql`id in (${[1, 2]})`).toThrow(TypeError);
    expect(() => sql`id = ${undefined}`).toThrow(TypeError);
    expect(render(sql`id = ${null}`).params).toEqual([null]);
    expect(() => sql`meta ? 'key'`).toThrow(SyntaxError);
  });

  it('refuses what the ORM would bind elsewhere: two parameters side by side, one after a backslash', () => {
    expect(() => render(sql`${1}${2}`)).toThrow(SyntaxError);
    expect(() => render(sql`x = ${sql`${1}`}${2}`)).toThrow(SyntaxError);
    expect(() => render(sql`like '\\${'%'}'`)).toThrow(SyntaxError);
    expect(render(sql`${1}, ${2}`)).toEqual({ text: '?, ?', params: [1, 2] });
  });

  it('takes identifiers only from the allow-list, quoted', () => {
    const column = sql.identifiers(['created_at', 'updated_at']);
    expect(render(sql`order by r.${column('created_at')}`).text).toBe('order by r."created_at"');
    expect(() => column('id; drop table lots')).toThrow(RangeError);
    expect(() => column('price')).toThrow(RangeError);
    expect(() => sql.identifiers(['ok', 'not "ok"'])).toThrow(SyntaxError);
  });

  it('orders by columns in one direction and compares rows beyond a keyset position', () => {
    const columns = [sql`l.end_time`, sql`l.id`];
    expect(render(sql.orderBy(columns, true)).text).toBe('l.end_time desc, l.id desc');
    expect(render(sql.orderBy(columns, false)).text).toBe('l.end_time asc, l.id asc');
    const position = [sql`${'2026-01-01'}::timestamptz`, sql`${'5'}::bigint`];
    expect(render(sql.beyond(columns, position, true))).toEqual({ text: '(l.end_time, l.id) < (?::timestamptz, ?::bigint)', params: ['2026-01-01', '5'] });
    expect(render(sql.beyond(columns, position, false)).text).toBe('(l.end_time, l.id) > (?::timestamptz, ?::bigint)');
    expect(() => sql.beyond(columns, position.slice(1), true)).toThrow(RangeError);
  });
});

describe('keysetClauses', () => {
  const at = '2026-11-24T03:00:00.123456Z';

  it('reads from the first row without a position', () => {
    const page = keysetClauses(sql`d.created_at`, 'timestamp', sql`d.id`, { desc: true, after: null });
    expect(render(page.beyond).text).toBe('true');
    expect(render(page.orderBy).text).toBe('d.created_at desc, d.id desc');
    expect(render(page.sortValue).text).toBe(`to_char(d.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);
  });

  it('reads beyond a position of its kind, cast back to the column types', () => {
    const page = keysetClauses(sql`d.created_at`, 'timestamp', sql`d.id`, { desc: false, after: { value: at, id: '42' } });
    expect(render(page.beyond)).toEqual({ text: '(d.created_at, d.id) > (?::timestamptz, ?::bigint)', params: [at, '42'] });
    const price = keysetClauses(sql`round(x * ${'1.1'}::numeric, 2)`, 'decimal', sql`l.id`, { desc: true, after: { value: '-12.50', id: '7' } });
    expect(render(price.beyond)).toEqual({ text: '(round(x * ?::numeric, 2), l.id) < (?::numeric, ?::bigint)', params: ['1.1', '-12.50', '7'] });
    expect(render(price.sortValue)).toEqual({ text: '(round(x * ?::numeric, 2))::text', params: ['1.1'] });
  });

  it.each([
    ['a decimal where a timestamp belongs', 'timestamp', '12.50', '1'],
    ['a timestamp without microseconds', 'timestamp', '2026-11-24T03:00:00.123Z', '1'],
    ['a timestamp where a decimal belongs', 'decimal', at, '1'],
    ['a number instead of text', 'decimal', 12, '1'],
    ['null', 'timestamp', null, '1'],
    ['an id that is no bigint', 'timestamp', at, '1 or true'],
  ] as const)('refuses %s as invalid_cursor', (_, kind, value, id) => {
    let caught: unknown;
    try {
      keysetClauses(sql`x`, kind, sql`id`, { desc: true, after: { value, id } });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(DomainError);
    expect((caught as DomainError).items[0]).toMatchObject({ code: 'invalid_cursor', source: { field: 'page.cursor' } });
  });
});
