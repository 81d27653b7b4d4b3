import type { MikroORM } from '@mikro-orm/postgresql';
import type { Config } from '../../config';
import { loggable } from '../../core/loggable';
import type { Logger } from '../../core/logger';
import type { CurrencyService } from './currency.service';
import { fetchRatesDocument, type RatesDocument } from './currency.source';

/**
 * Runs a task now and then again `intervalMs` after each run ends (runs never overlap). The
 * first run is awaited by `start`; `stop` cancels the next run and waits for one in flight.
 */
export class Poller {
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly task: () => Promise<void>,
    private readonly intervalMs: number,
  ) {}

  async start(): Promise<void> {
    await this.tick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.inFlight;
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    this.inFlight = this.task().catch(() => undefined);
    await this.inFlight;
    this.inFlight = null;
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }
}

export interface RatesPolling {
  stop(): Promise<void>;
}

/** Why a fetch failed, in one line (fetch's own "fetch failed" names its cause). */
function reasonOf(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
  return `${err.message}${cause}`;
}

/** The origin of the source, for logs (its path or query may carry an access key). */
const originOf = (url: string) => new URL(url).origin;

/**
 * One refresh from the rates source: fetch (outside any transaction), then write. A failure is
 * logged as a warning and the stored rates stay as they are.
 */
export async function refreshRates(
  orm: MikroORM,
  currency: CurrencyService,
  url: string,
  log: Logger,
  fetchDocument: (url: string) => Promise<RatesDocument> = fetchRatesDocument,
): Promise<void> {
  const source = originOf(url);
  let doc: RatesDocument;
  try {
    doc = await fetchDocument(url);
  } catch (err) {
    log.warn({ source, reason: reasonOf(err) }, 'fetching currency rates failed; keeping the current rates');
    return;
  }
  try {
    const changed = await currency.applyRates(orm.em.fork(), doc);
    if (changed === null) log.debug({ source }, 'currency rates are being refreshed by another instance');
    else log[changed ? 'info' : 'debug']({ source, asOf: doc.asOf.toISOString(), changed }, 'currency rates refreshed');
  } catch (err) {
    log.warn({ err: loggable(err), source }, 'storing currency rates failed; keeping the current rates');
  }
}

/**
 * With `RATES_URL` set: refreshes the rates at start (awaited, so the first answers use them)
 * and then every `RATES_POLL_SECONDS`. Without it: nothing.
 */
export async function startRatesPolling(config: Pick<Config, 'RATES_URL' | 'RATES_POLL_SECONDS'>, orm: MikroORM, currency: CurrencyService, log: Logger): Promise<RatesPolling> {
  const url = config.RATES_URL;
  if (!url) return { stop: async () => undefined };
  const poller = new Poller(() => refreshRates(orm, currency, url, log), config.RATES_POLL_SECONDS * 1000);
  await poller.start();
  return poller;
}
