import { databaseMessage } from '../core/loggable';
import { logger } from '../core/logger';
import { isUnreachable } from './faults';

/**
 * Whether the database answered last time it was asked, said once per change. While it is out of
 * reach every request fails the same way: a stack per request (1,860 error lines in 3.5 minutes of
 * an outage) would bury everything else, so the log gets one warn line when it goes and one when
 * it is back, and the requests' own lines (status 503) say the rest.
 */
export class Reachability {
  private down = false;

  /** Notes a failure as the driver raised it; only one that says the database is out of reach counts. */
  failed(err: unknown): void {
    if (this.down || !isUnreachable(err)) return;
    this.down = true;
    const { code, message } = err as { code?: unknown; message?: unknown };
    // The error may have passed through knex, which wrote the statement and its values before its
    // message (a password hash reached the log so, found by an outside test).
    logger.warn({ code, reason: typeof message === 'string' ? databaseMessage(message, message) : null }, 'the database is out of reach');
  }

  answered(): void {
    if (!this.down) return;
    this.down = false;
    logger.warn('the database answers again');
  }
}
