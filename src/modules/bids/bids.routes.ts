import { invalid } from '../../core/errors';
import { inputDocument, parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { placeBidInput } from './bids.input';

/** The body's lot_id is optional; given, it must name the path's lot (a document about another lot is malformed). */
function checkLotId(given: unknown, lotId: string): void {
  if (given === undefined) return;
  if (!(Number.isInteger(given) || (typeof given === 'string' && /^\d{1,18}$/.test(given)))) {
    throw invalid('invalid_field', 'lot_id: must be an integer', { pointer: '/data/attributes/lot_id' });
  }
  if (String(given) !== lotId) throw invalid('invalid_field', 'lot_id must be the lot of the path', { pointer: '/data/attributes/lot_id' });
}

export function bidsRoutes(router: AppRouter): void {
  const { bids } = router.services;
  router.post('/lots/:id/bid_requests', { summary: 'Bid on a lot, optionally with a maximum for automatic raises', authenticated: true, status: 204, body: { type: 'bid_requests', input: placeBidInput } }, async ({ ctx, params, body }) => {
    const attributes = parseDocument(inputDocument('bid_requests'), body).data.attributes ?? {};
    checkLotId(attributes.lot_id, params.id);
    await bids.place(ctx, { lotId: params.id, amount: attributes.amount, maxAmount: attributes.max_amount });
  });
}
