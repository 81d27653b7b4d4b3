import pino from 'pino';

/**
 * One JSON logger for the process. Secrets never reach it: request logs carry method, path,
 * status, duration and request id, never headers or bodies.
 */
export const logger = pino({
  // Each entry point sets LOG_LEVEL once the configuration is validated.
  level: 'info',
  redact: { paths: ['password', '*.password', 'seed', '*.seed', 'authorization', '*.authorization'], remove: true },
});
export type Logger = typeof logger;
