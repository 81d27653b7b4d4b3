/** RFC 3339 in UTC with a Z and no fractional seconds, as every response shows time. */
export function rfc3339(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export function epochSeconds(date: Date = new Date()): number {
  return Math.floor(date.getTime() / 1000);
}

/** The start of the second `date` falls in: lot times are whole seconds (PROTOCOL.md §9). */
export function wholeSecond(date: Date = new Date()): Date {
  return new Date(epochSeconds(date) * 1000);
}
