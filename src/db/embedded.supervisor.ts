import type { Logger } from '../core/logger';
import { startEmbeddedPostgres, type EmbeddedPostgres } from './embedded';

export interface SupervisedPostgres extends EmbeddedPostgres {
  /** False once restarts have failed FAILURES_BEFORE_UNHEALTHY times in a row: /healthz then fails, so that a supervisor restarts the process. */
  healthy(): boolean;
}

const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 5000;
const FAILURES_BEFORE_UNHEALTHY = 5;

/**
 * The embedded PostgreSQL, started again whenever it ends without being stopped (killed, out
 * of memory, crashed), on the same port with the same data: the service's connection URL
 * stays valid and its pool reconnects. Attempts back off from FIRST_DELAY_MS to MAX_DELAY_MS.
 */
export async function superviseEmbeddedPostgres(dir: string, port: number, log: Logger): Promise<SupervisedPostgres> {
  let failures = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let attempt: Promise<void> | undefined;

  const start = (at: number, portSetting?: string) => startEmbeddedPostgres({ dir, port: at, portSetting, log, onExit: restart });
  let current = await start(port, 'EMBEDDED_DB_PORT');

  function restart(reason: string): void {
    if (stopped) return;
    log.error({ port: current.port, reason }, 'the embedded PostgreSQL exited; starting it again');
    schedule(1);
  }

  function schedule(n: number): void {
    const delay = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** (n - 1));
    timer = setTimeout(() => (attempt = retry(n)), delay);
  }

  async function retry(n: number): Promise<void> {
    try {
      const started = await start(current.port);
      current = started;
      failures = 0;
      log.warn({ attempt: n }, `the embedded PostgreSQL is back (attempt ${n})`);
      if (stopped) await started.stop();
    } catch (err) {
      failures = n;
      if (stopped) return;
      const next = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** n);
      log.warn({ attempt: n, err: (err as Error).message, retryInMs: next }, `the embedded PostgreSQL did not start again (attempt ${n})`);
      schedule(n + 1);
    }
  }

  return {
    get url() {
      return current.url;
    },
    get port() {
      return current.port;
    },
    dataDir: current.dataDir,
    passFile: current.passFile,
    healthy: () => failures < FAILURES_BEFORE_UNHEALTHY,
    async stop(now = false) {
      stopped = true;
      clearTimeout(timer);
      // Not for a restart under way, when forced: the keeper of the server it starts stops that server once this process is gone.
      if (!now) await attempt;
      await current.stop(now);
    },
  };
}
