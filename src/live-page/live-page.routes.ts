import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { AppRouter } from '../rest/router';

/** The page is static (it reads the lot id from its own URL), so it is read once. */
const PAGE = readFileSync(path.join(__dirname, 'live-page.html'), 'utf8');

const hashOf = (tag: 'script' | 'style') => {
  const body = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`).exec(PAGE)?.[1];
  if (body === undefined) throw new Error(`live-page.html has no <${tag}>`);
  return `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`;
};

/** Only the page's own inline script and style run; it talks to this origin alone (HTTP and WebSocket). */
const CSP = [
  "default-src 'none'",
  `script-src ${hashOf('script')}`,
  `style-src ${hashOf('style')}`,
  "connect-src 'self'",
  // The lot's photo: a document of this service or an https link of the lot's details; the
  // empty data: favicon spares the browser a request for /favicon.ico.
  "img-src 'self' https: data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** GET /live/{lot-id}: a page following one lot as it happens (photo, bids, state, countdown, soft-close extensions). */
export function livePageRoutes(router: AppRouter): void {
  router.raw(['get'], '/live/:id', { summary: 'A page following one lot as it happens', produces: 'text/html' }, async (koa) => {
    // The same lookup as GET /lots/{id}: an unknown or malformed id is its 404 lot_not_found.
    await router.services.lots.get(koa.state.ctx, { id: koa.params.id });
    koa.set('Content-Security-Policy', CSP);
    koa.set('Referrer-Policy', 'no-referrer');
    koa.set('Cache-Control', 'no-cache');
    koa.type = 'text/html; charset=utf-8';
    koa.body = PAGE;
  });
}
