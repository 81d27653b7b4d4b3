import pino from 'pino';

/**
 * One logger for the process (see below for its format). Secrets never reach it: request logs carry the client's
 * address, method, path, status, duration and request id, never headers or bodies.
 */
const options: pino.LoggerOptions = {
  // Each entry point sets LOG_LEVEL once the configuration is validated.
  level: 'info',
  redact: { paths: ['password', '*.password', 'seed', '*.seed', 'authorization', '*.authorization'], remove: true },
};
// On a terminal a person reads the lines; anywhere else (a file, a log collector) each stays one JSON object.
// pino-pretty (some 40 modules) is loaded for a terminal only: every other process, each test file too, goes without.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const pretty = () => (require('pino-pretty') as typeof import('pino-pretty'))({ sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
export const logger = process.stdout.isTTY ? pino(options, pretty()) : pino(options);
export type Logger = typeof logger;
