import { databaseMessage } from '../core/loggable';
import { logger } from '../core/logger';
import { Retold } from '../core/retold';
import { failingCode, isUnreachable } from './faults';

/**
 * Whether the database answered last time it was asked, said once per change. While it is out of
 * reach every request fails the same way: a stack per request (1,860 error lines in 3.5 minutes of
 * an outage) would bury everything else, so the log gets one warn line when it goes and one when
 * it is back, and the requests' own lines (status 503) say the rest.
 *
 * A database that answers but fails statements (a full disk) has no moment of return to tell: its
 * reads may go on working while every write fails. It is told once a minute at most, per code.
 */
export class Reachability {
  private down = false;
  private readonly failing = new Retold();

  /** Notes a failure as the driver raised it; only one that says the database is out of reach or failing counts. */
  failed(err: unknown): void {
    const { code, message } = err as { code?: unknown; message?: unknown };
    // The error may have passed through knex, which wrote the statement and its values before its
    // message (a password hash reached the log so, found by an outside test).
    const reason = typeof message === 'string' ? databaseMessage(message, message) : null;
    const failing = failingCode(err);
    if (failing !== null) return this.failing.say(failing, (heldBack) => logger.warn({ code: failing, reason, heldBack }, 'the database fails statements'));
    if (this.down || !isUnreachable(err)) return;
    this.down = true;
    logger.warn({ code, reason }, 'the database is out of reach');
  }

  answered(): void {
    if (!this.down) return;
    this.down = false;
    logger.warn('the database answers again');
  }
}
