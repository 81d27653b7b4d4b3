import type { MikroORM } from '@mikro-orm/postgresql';
import { loggable } from '../../core/loggable';
import type { Logger } from '../../core/logger';
import type { CurrencyService } from './currency.service';
import { fetchRatesDocument, type RatesDocument } from './currency.source';

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
    log.warn({ err: loggable(err), source, reason: reasonOf(err) }, 'fetching currency rates failed; keeping the current rates');
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
