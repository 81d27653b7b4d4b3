const pad = (n: number) => (n < 10 ? `0${n}` : `${n}`);
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * `toISOString`'s form, with or without its milliseconds, built from the date's UTC fields: a
 * third of its cost, and a page of 20 lots shows 80 dates. Null for years outside 1000–9999 and
 * invalid dates, which keep `toISOString`'s own form and error.
 */
function utc(date: Date, millis: boolean): string | null {
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return null;
  const seconds = `${year}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  return millis ? `${seconds}.${pad3(date.getUTCMilliseconds())}Z` : `${seconds}Z`;
}

/** RFC 3339 in UTC with a Z and no fractional seconds, as every REST response shows time. */
export function rfc3339(date: Date): string {
  return utc(date, false) ?? date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A valid date as `toISOString` writes it (GraphQL's `DateTimeISO`); null where `utc` gives none. */
export function isoTimestamp(date: Date): string | null {
  return utc(date, true);
}

export function epochSeconds(date: Date = new Date()): number {
  return Math.floor(date.getTime() / 1000);
}

/** The start of the second `date` falls in: lot times are whole seconds (PROTOCOL.md §9). */
export function wholeSecond(date: Date = new Date()): Date {
  return new Date(epochSeconds(date) * 1000);
}
