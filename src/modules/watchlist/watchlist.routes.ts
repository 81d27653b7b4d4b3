import { inputDocument, parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { presentCallback, presentStar } from './watchlist.presenter';

/** Watchlist (stars) and callback requests; the watchlist is listed by GET /lots?filter[stars_of]. */
export function watchlistRoutes(router: AppRouter): void {
  const { watchlist } = router.services;
  router.post('/accounts/:id/stars', { authenticated: true, status: 201, fields: { in: 'body', names: { lotId: 'id' } } }, async ({ rc, params, body }) => {
    const { id } = parseDocument(inputDocument('lots'), body).data;
    return { data: presentStar(await watchlist.star(rc, { accountId: params.id, lotId: id })) };
  });
  router.delete('/accounts/:id/stars/:lotId', { authenticated: true, status: 204 }, async ({ rc, params }) => {
    await watchlist.unstar(rc, { accountId: params.id, lotId: params.lotId });
  });
  router.post('/lots/:id/callbacks', { authenticated: true, status: 201 }, async ({ rc, params }) => ({
    data: presentCallback(await watchlist.requestCallback(rc, { lotId: params.id })),
  }));
  router.delete('/lots/:id/callbacks/:accountId', { authenticated: true, status: 204 }, async ({ rc, params }) => {
    await watchlist.deleteCallback(rc, { lotId: params.id, accountId: params.accountId });
  });
}
