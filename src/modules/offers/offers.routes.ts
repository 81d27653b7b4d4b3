import { inputDocument, parseDocument, requirePathId } from '../../rest/document';
import { fromWire } from '../../rest/fields';
import type { AppRouter } from '../../rest/router';
import { answerInput, offerInput } from './offers.input';
import { presentOffer } from './offers.presenter';

/** Second-chance offers of a lot whose winner's deal was canceled or whose reserve lapsed (docs/auction-rules.md). */
export function offersRoutes(router: AppRouter): void {
  const { secondChance } = router.services;

  router.post('/lots/:id/second_chance_offers', { summary: "Offer a lot whose winner's deal was canceled, or whose reserve lapsed, to the next bidder (organizer or staff)", authenticated: true, status: 201, body: { type: 'second_chance_offers', input: offerInput, omit: ['lotId'] }, response: 'second_chance_offers' }, async ({ ctx, params, body }) => {
    const { attributes } = parseDocument(inputDocument('second_chance_offers'), body).data;
    return { data: presentOffer(await secondChance.offer(ctx, { lotId: params.id, ...fromWire(attributes, ['accountId', 'expiresIn']) })) };
  });

  router.get('/lots/:id/second_chance_offers', { summary: "A lot's second-chance offers (organizer and staff: all; a bidder: those made to it)", authenticated: true, response: ['second_chance_offers'] }, async ({ ctx, params }) => ({
    data: (await secondChance.list(ctx, { lotId: params.id })).map(presentOffer),
  }));

  router.patch('/lots/:id/second_chance_offers/:offerId', { summary: 'Accept or decline a second-chance offer (the bidder offered)', authenticated: true, body: { type: 'second_chance_offers', input: answerInput, omit: ['lotId', 'offerId'], id: 'optional' }, response: 'second_chance_offers', fields: { in: 'body', names: { offerId: 'id' } } }, async ({ ctx, params, body }) => {
    const { id, attributes } = parseDocument(inputDocument('second_chance_offers'), body).data;
    requirePathId(id, params.offerId, 'data.id must be the id of the offer in the path');
    return { data: presentOffer(await secondChance.answer(ctx, { lotId: params.id, offerId: params.offerId, ...fromWire(attributes, ['state']) })) };
  });
}
