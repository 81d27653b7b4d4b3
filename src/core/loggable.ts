import { DriverException } from '@mikro-orm/core';

/**
 * What of an unexpected error may reach the log. Driver errors carry the SQL with its parameters
 * (password hashes, tokens), so only the database's own message and codes are kept.
 */
export function loggable(err: unknown): Record<string, unknown> {
  if (err instanceof DriverException) {
    const message = err.message.includes(' - ') ? err.message.slice(err.message.indexOf(' - ') + 3) : err.name;
    return { type: err.name, code: err.code, sqlState: err.sqlState, message };
  }
  if (err instanceof Error) return { type: err.name, message: err.message, stack: err.stack };
  return { type: typeof err };
}
