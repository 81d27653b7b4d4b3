import { inputDocument, parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { encodeReceipt } from '../bidlog';
import { requireBodyLotId } from '../lots';
import { placeBidInput } from './bids.input';
import { presentPlacedBids } from './bids.presenter';

export function bidsRoutes(router: AppRouter): void {
  const { bids } = router.services;
  router.post(
    '/lots/:id/bid_requests',
    {
      summary: 'Bid on a lot, optionally with a maximum for automatic raises; the `Bid-Receipt` header carries the signed receipt of its bids in the transparency log',
      description: 'With `Prefer: return=representation` it answers 200 with the bids placed (its own, then the automatic raises it caused) and, in `meta.receipt`, their receipt.',
      authenticated: true,
      status: 204,
      represented: ['bids'],
      body: { type: 'bid_requests', input: placeBidInput },
    },
    async ({ ctx, params, body, koa, representation }) => {
    const attributes = parseDocument(inputDocument('bid_requests'), body).data.attributes ?? {};
    requireBodyLotId(attributes.lot_id, params.id);
    const placed = await bids.place(ctx, { lotId: params.id, amount: attributes.amount, maxAmount: attributes.max_amount });
    // The 204 stays bodiless for existing clients; the receipt rides in a header (docs/bid-log.md).
    const encoded = placed.receipt && encodeReceipt(placed.receipt);
    if (encoded) koa.set('Bid-Receipt', encoded);
    return representation ? presentPlacedBids(placed.bids, placed.receipt, encoded) : undefined;
  });
}
