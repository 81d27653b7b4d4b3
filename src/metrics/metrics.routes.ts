import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import type { RequestContext } from '../core/context';
import { forbidden, unauthenticated } from '../core/errors';
import type { AppRouter } from '../rest/router';
import type { Metrics } from './metrics';

export const METRICS_PATH = '/metrics';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/**
 * Who may read the metrics: a loopback caller that no proxy forwarded (a scraper on the same
 * host or in the same pod), or, when METRICS_TOKEN is set, anyone who sends it as a bearer token
 * (a scraper on the instances' network). The figures name routes, queues and load: nothing for
 * the public, so there is no anonymous access from outside.
 */
function mayRead(koa: Context, token: string | undefined): void {
  const ctx: RequestContext = koa.state.ctx;
  if (ctx.local) return;
  if (!token) throw forbidden('local_only', 'GET /metrics is served to loopback callers only (set METRICS_TOKEN to scrape from elsewhere)');
  const given = /^Bearer (.+)$/.exec(koa.get('authorization'))?.[1] ?? '';
  if (!timingSafeEqual(digest(given), digest(token))) throw unauthenticated('unauthenticated', 'GET /metrics needs the METRICS_TOKEN as a bearer token');
}

export function metricsRoutes(router: AppRouter, metrics: Metrics, token: string | undefined): void {
  router.raw(['get'], METRICS_PATH, { summary: 'Prometheus metrics (loopback callers, or the METRICS_TOKEN as a bearer token)', produces: 'text/plain; version=0.0.4' }, async (koa) => {
    mayRead(koa, token);
    koa.set('Cache-Control', 'no-store');
    koa.type = metrics.registry.contentType;
    koa.body = await metrics.text();
  });
}
