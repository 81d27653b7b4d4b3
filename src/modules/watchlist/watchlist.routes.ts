import { inputDocument, parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { presentCallback, presentStar } from './watchlist.presenter';

/** Watchlist (stars) and callback requests; the watchlist is listed by GET /lots?filter[stars_of]. */
export function watchlistRoutes(router: AppRouter): void {
  const { watchlist } = router.services;
  router.post('/accounts/:id/stars', { authenticated: true, status: 201 }, async ({ rc, params, body }) => {
    const { data } = parseDocument(inputDocument('lots'), body);
    return { data: presentStar(await watchlist.star(rc, params.id, data)) };
  });
  router.delete('/accounts/:id/stars/:lotId', { authenticated: true, status: 204 }, async ({ rc, params }) => {
    await watchlist.unstar(rc, params.id, params.lotId);
  });
  router.post('/lots/:id/callbacks', { authenticated: true, status: 201 }, async ({ rc, params }) => ({
    data: presentCallback(await watchlist.requestCallback(rc, params.id)),
  }));
  router.delete('/lots/:id/callbacks/:accountId', { authenticated: true, status: 204 }, async ({ rc, params }) => {
    await watchlist.deleteCallback(rc, params.id, params.accountId);
  });
}
