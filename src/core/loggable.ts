import { DriverException } from '@mikro-orm/core';

/**
 * A stack's frames without its first line: a driver error's message holds the SQL with its
 * values, and the stack starts with that message. Nothing is kept when the stack does not start
 * as expected, since the message could not be told apart from the frames.
 */
function framesOf(err: Error): string {
  const header = `${err.name}: ${err.message}\n`;
  return err.stack?.startsWith(header) ? err.stack.slice(header.length) : '';
}

/**
 * The database's own message in a driver's error, without the statement (and its values: password
 * hashes, messages, e-mail addresses) that knex writes before it: `<statement> - <message>`. Cut
 * at the last separator, as the statement's values may hold one; none: nothing but `fallback`.
 */
export function databaseMessage(message: string, fallback: string): string {
  const cut = message.lastIndexOf(' - ');
  return cut < 0 ? fallback : message.slice(cut + 3);
}

/**
 * What of an unexpected error may reach the log: its type, message, stack and cause. Driver
 * errors carry the SQL with its parameters (password hashes, tokens), so only the database's own
 * message and codes are kept, with the frames of the stack.
 */
export function loggable(err: unknown): Record<string, unknown> {
  if (err instanceof DriverException) {
    const message = databaseMessage(err.message, err.name);
    return { type: err.name, code: err.code, sqlState: err.sqlState, message, stack: `${err.name}: ${message}\n${framesOf(err)}` };
  }
  // node-postgres' own error, as a raw statement (`rowsOf`, `execute`) raises it: knex wrote the
  // statement with its values into its message as well.
  if (err instanceof Error && typeof (err as { severity?: unknown }).severity === 'string') {
    const message = databaseMessage(err.message, err.name);
    return { type: err.name, sqlState: (err as { code?: unknown }).code, message, stack: `${err.name}: ${message}\n${framesOf(err)}` };
  }
  if (err instanceof Error) {
    return { type: err.name, message: err.message, stack: err.stack, ...(err.cause === undefined ? {} : { cause: loggable(err.cause) }) };
  }
  return { type: typeof err };
}
