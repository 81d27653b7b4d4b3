import type { Logger } from './core/logger';

/**
 * A signal this long after the first is a second one from a person: npm passes a Ctrl-C on to the
 * service, which hears it twice at once.
 */
const AGAIN_AFTER_MS = 1000;

export interface Stop {
  /** Finishes requests in flight and jobs, closes connections, stops the database. */
  orderly(): Promise<void>;
  /** Ends at once what the orderly stop waits for in vain (a hung database). */
  forced(): Promise<void>;
  /** What a forced stop abandons, for its line in the log. */
  abandons: string;
  /** How long the orderly stop may take before it is forced. */
  limitMs: number;
}

/**
 * SIGTERM, SIGINT and SIGHUP (a closed terminal or ssh session) stop the service in order. A
 * second signal during the stop, or a stop past `limitMs`, forces it: whatever the database does
 * (stopped, its disk hung), the service is gone within the bound, with exit code 1.
 */
export function stopOnSignals(stop: Stop, log: Logger): void {
  let began: number | undefined;
  let forcing = false;
  const force = async (reason: string) => {
    if (forcing) return;
    forcing = true;
    log.warn({ reason }, `stopping now (${reason}): ${stop.abandons}`);
    try {
      await stop.forced();
    } finally {
      process.exit(1);
    }
  };
  const onSignal = async (signal: string) => {
    if (began !== undefined) {
      if (Date.now() - began >= AGAIN_AFTER_MS) void force(`${signal} again during the stop`);
      return;
    }
    began = Date.now();
    log.info({ signal }, 'shutting down');
    setTimeout(() => void force(`the stop took longer than ${stop.limitMs / 1000} s`), stop.limitMs);
    try {
      await stop.orderly();
    } finally {
      // Forced meanwhile, the orderly stop may still end first: what the force killed let its waits go.
      process.exit(forcing ? 1 : 0);
    }
  };
  // Not once: the default action of a second signal would end the service before its database.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(signal, () => void onSignal(signal));
}
