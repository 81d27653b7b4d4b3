const pad = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * RFC 3339 in UTC with a Z and no fractional seconds, as every response shows time. Built from
 * the date's UTC fields, which costs a third of `toISOString` and a replace (a page of 20 lots
 * shows 80 times); years outside 1000–9999 and invalid dates keep `toISOString`'s form and error.
 */
export function rfc3339(date: Date): string {
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return `${year}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}Z`;
}

export function epochSeconds(date: Date = new Date()): number {
  return Math.floor(date.getTime() / 1000);
}

/** The start of the second `date` falls in: lot times are whole seconds (PROTOCOL.md §9). */
export function wholeSecond(date: Date = new Date()): Date {
  return new Date(epochSeconds(date) * 1000);
}
