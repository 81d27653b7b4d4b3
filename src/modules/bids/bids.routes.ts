import { inputDocument, parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { requireBodyLotId } from '../lots';
import { placeBidInput } from './bids.input';

export function bidsRoutes(router: AppRouter): void {
  const { bids } = router.services;
  router.post('/lots/:id/bid_requests', { summary: 'Bid on a lot, optionally with a maximum for automatic raises', authenticated: true, status: 204, body: { type: 'bid_requests', input: placeBidInput } }, async ({ ctx, params, body }) => {
    const attributes = parseDocument(inputDocument('bid_requests'), body).data.attributes ?? {};
    requireBodyLotId(attributes.lot_id, params.id);
    await bids.place(ctx, { lotId: params.id, amount: attributes.amount, maxAmount: attributes.max_amount });
  });
}
