import { GraphQLDateTimeISO } from 'graphql-scalars';
import { DateTimeISO } from '../../src/graphql/date-scalar';
import { rfc3339 } from '../../src/core/time';

/** Dates of years 1000-9999 (a leap day, milliseconds), then one every 114 days or so from 1900 to 2300. */
const acrossCenturies = [new Date(Date.UTC(2026, 10, 24, 22, 31, 59, 7)), new Date(Date.UTC(2024, 1, 29, 23, 59, 59, 999)), new Date(Date.UTC(1000, 0, 1))];
for (let t = Date.UTC(1900, 0, 1); t < Date.UTC(2300, 0, 1); t += 9_876_543_217) acrossCenturies.push(new Date(t));

/** The form every response showed before: toISOString without its milliseconds. */
const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('rfc3339', () => {
  it('writes a UTC date as YYYY-MM-DDTHH:MM:SSZ, its milliseconds dropped', () => {
    expect(rfc3339(new Date(Date.UTC(2026, 0, 5, 3, 4, 9, 999)))).toBe('2026-01-05T03:04:09Z');
    expect(rfc3339(new Date('2026-11-24 22:31:59.123+00'))).toBe('2026-11-24T22:31:59Z');
  });

  it('answers as toISOString does, across four centuries, leap days and the edges of a day', () => {
    for (const date of [...acrossCenturies, new Date(Date.UTC(2000, 11, 31, 0, 0, 0)), new Date(Date.UTC(9999, 11, 31, 23, 59, 59))]) expect(rfc3339(date)).toBe(iso(date));
  });

  it('keeps toISOString for years outside 1000-9999, and its error for an invalid date', () => {
    for (const date of [new Date(Date.UTC(999, 5, 1)), new Date(Date.UTC(10000, 0, 1)), new Date(Date.UTC(-1, 0, 1))]) expect(rfc3339(date)).toBe(iso(date));
    expect(() => rfc3339(new Date(Number.NaN))).toThrow(RangeError);
  });
});

describe("GraphQL's DateTimeISO", () => {
  it('writes a date as REST does: whole seconds and a Z', () => {
    expect(DateTimeISO.serialize(new Date(Date.UTC(2026, 10, 24, 22, 31, 33, 0)))).toBe('2026-11-24T22:31:33Z');
    for (const date of acrossCenturies) expect(DateTimeISO.serialize(date)).toBe(iso(date));
  });

  it("takes anything else through graphql-scalars' own scalar, then writes it in the same form", () => {
    for (const value of [new Date(Date.UTC(999, 5, 1)), new Date(Date.UTC(10000, 0, 1)), '2026-11-24T22:31:59.123+02:00', 1_795_564_813_592]) {
      expect(DateTimeISO.serialize(value)).toEqual((GraphQLDateTimeISO.serialize(value) as string).replace(/\.\d{3}Z$/, 'Z'));
    }
    expect(DateTimeISO.serialize('2026-11-24T22:31:59.123+02:00')).toBe('2026-11-24T20:31:59Z');
    expect(() => DateTimeISO.serialize(new Date(Number.NaN))).toThrow('DateTime cannot represent an invalid Date instance');
    expect(() => DateTimeISO.serialize({})).toThrow(/non string, non numeric or non Date/);
    expect(DateTimeISO.parseValue('2026-11-24T22:31:59.123Z')).toEqual(GraphQLDateTimeISO.parseValue('2026-11-24T22:31:59.123Z'));
    expect(DateTimeISO.name).toBe(GraphQLDateTimeISO.name);
  });
});
