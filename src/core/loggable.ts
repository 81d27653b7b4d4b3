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
 * What of an unexpected error may reach the log: its type, message, stack and cause. Driver
 * errors carry the SQL with its parameters (password hashes, tokens), so only the database's own
 * message and codes are kept, with the frames of the stack.
 */
export function loggable(err: unknown): Record<string, unknown> {
  if (err instanceof DriverException) {
    const message = err.message.includes(' - ') ? err.message.slice(err.message.indexOf(' - ') + 3) : err.name;
    return { type: err.name, code: err.code, sqlState: err.sqlState, message, stack: `${err.name}: ${message}\n${framesOf(err)}` };
  }
  if (err instanceof Error) {
    return { type: err.name, message: err.message, stack: err.stack, ...(err.cause === undefined ? {} : { cause: loggable(err.cause) }) };
  }
  return { type: typeof err };
}
