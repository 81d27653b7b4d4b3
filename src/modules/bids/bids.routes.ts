import { inputDocument, parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';

export function bidsRoutes(router: AppRouter): void {
  const { bids } = router.services;
  router.post('/lots/:id/bid_requests', { authenticated: true, status: 204 }, async ({ rc, params, body }) => {
    const { data } = parseDocument(inputDocument('bid_requests'), body);
    await bids.place(rc, params.id, data);
  });
}
