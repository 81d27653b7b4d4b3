const pad = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * `toISOString`'s form without its milliseconds, built from the date's UTC fields: a third of its
 * cost, and a page of 20 lots shows 80 dates. Null for years outside 1000–9999 and invalid dates,
 * which keep `toISOString`'s own form and error.
 */
function utc(date: Date): string | null {
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return null;
  return `${year}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}Z`;
}

/** RFC 3339 in UTC with a Z and no fractional seconds: the one form both edges show time in. */
export function rfc3339(date: Date): string {
  return utc(date) ?? date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function epochSeconds(date: Date = new Date()): number {
  return Math.floor(date.getTime() / 1000);
}

/** The start of the second `date` falls in: lot times are whole seconds, as every time the edges show (docs/rest.md). */
export function wholeSecond(date: Date = new Date()): Date {
  return new Date(epochSeconds(date) * 1000);
}

/**
 * The instants an input may name: from the Unix epoch to the last second of year 9999. Earlier or
 * later ones (year 0000, a year of six digits) are typing mistakes; PostgreSQL would hold some, and
 * the four-digit years of RFC 3339 could not show them back.
 */
export const INSTANT_RANGE = { from: new Date(Date.UTC(1970, 0, 1)), to: new Date(Date.UTC(9999, 11, 31, 23, 59, 59)) } as const;

export const withinInstantRange = (date: Date): boolean => date >= INSTANT_RANGE.from && date <= INSTANT_RANGE.to;

export const INSTANT_RANGE_MESSAGE = `must be between ${rfc3339(INSTANT_RANGE.from)} and ${rfc3339(INSTANT_RANGE.to)}`;

/**
 * Whether the date and time at the start of `text` (`YYYY-MM-DDTHH:MM:SS`, as a cursor carries
 * them) name a real instant of a year from 1: a month 13 or a 30 February matches a pattern of
 * digits, and PostgreSQL would refuse its cast with an error the client did not cause.
 */
export function isCalendarTime(text: string): boolean {
  const parts = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(text);
  if (!parts) return false;
  const [year, month, day, hours, minutes, seconds] = parts.slice(1).map(Number);
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hours, minutes, seconds, 0);
  return (
    year >= 1 &&
    at.getUTCFullYear() === year &&
    at.getUTCMonth() === month - 1 &&
    at.getUTCDate() === day &&
    at.getUTCHours() === hours &&
    at.getUTCMinutes() === minutes &&
    at.getUTCSeconds() === seconds
  );
}
