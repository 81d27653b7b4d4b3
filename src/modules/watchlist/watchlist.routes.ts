import { inputDocument, parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { presentCallback, presentStar } from './watchlist.presenter';

/** Watchlist (stars) and callback requests; the watchlist is listed by GET /lots?filter[stars_of]. */
export function watchlistRoutes(router: AppRouter): void {
  const { watchlist } = router.services;
  router.post('/accounts/:id/stars', { summary: 'Star a lot', authenticated: true, status: 201, body: { type: 'lots', id: 'required' }, response: 'lots', fields: { in: 'body', names: { lotId: 'id' } } }, async ({ ctx, params, body }) => {
    const { id } = parseDocument(inputDocument('lots'), body).data;
    return { data: presentStar(await watchlist.star(ctx, { accountId: params.id, lotId: id })) };
  });
  router.delete('/accounts/:id/stars/:lotId', { summary: 'Unstar a lot', authenticated: true, status: 204 }, async ({ ctx, params }) => {
    await watchlist.unstar(ctx, { accountId: params.id, lotId: params.lotId });
  });
  router.post('/lots/:id/callbacks', { summary: 'Ask to be called back about a lot', authenticated: true, status: 201, response: 'callbacks' }, async ({ ctx, params }) => ({
    data: presentCallback(await watchlist.requestCallback(ctx, { lotId: params.id })),
  }));
  router.delete('/lots/:id/callbacks/:accountId', { summary: 'Withdraw a callback request', authenticated: true, status: 204 }, async ({ ctx, params }) => {
    await watchlist.deleteCallback(ctx, { lotId: params.id, accountId: params.accountId });
  });
}
