import { inputDocument, parseDocument, requirePathId } from '../../rest/document';
import { fromWire } from '../../rest/fields';
import type { AppRouter } from '../../rest/router';
import { requireBodyLotId, renderLots } from '../lots';
import { chooseWinnerInput, closeLotInput, participateInput, WINNER_DETAILS_FIELDS, winnerDetailsInput } from './trading.input';
import { presentParticipant, presentWinnerDetails } from './trading.presenter';

/** Participation, buy now, winners, rejection, closing and winner details. */
export function tradingRoutes(router: AppRouter): void {
  const { participation, winners } = router.services;

  router.post('/lots/:id/participation_requests', { summary: 'Ask to take part in a lot (or to buy it now)', authenticated: true, status: 204, body: { type: 'participation_requests', input: participateInput } }, async ({ ctx, params, body }) => {
    const { attributes } = parseDocument(inputDocument('participation_requests'), body).data;
    const stated = fromWire(attributes, ['lotId', 'buyNow']);
    requireBodyLotId(stated.lotId, params.id);
    await participation.participate(ctx, { lotId: params.id, buyNow: stated.buyNow });
  });

  router.patch('/v2/lots/:id/participants/:account', { summary: 'Buy a lot now', authenticated: true, response: 'participants' }, async ({ ctx, params }) => ({
    data: presentParticipant(await participation.buyNow(ctx, { lotId: params.id, accountId: params.account })),
  }));

  router.post('/v2/lots/:id/winners', { summary: 'Choose the winner of a lot', authenticated: true, body: { type: 'participants', input: chooseWinnerInput, omit: ['lotId', 'participantId'], id: 'required' }, response: 'participants', fields: { in: 'body', names: { participantId: 'id' } } }, async ({ ctx, params, body }) => {
    const { id, attributes } = parseDocument(inputDocument('participants'), body).data;
    const { winner } = await winners.chooseWinner(ctx, { lotId: params.id, participantId: id, ...fromWire(attributes, ['buyNow', 'accountId', 'acceptBelowReserve']) });
    return { data: presentParticipant(winner) };
  });

  router.delete('/v2/lots/:id/participants/:account', { summary: 'Reject a participant', authenticated: true, status: 204 }, async ({ ctx, params }) => {
    await winners.reject(ctx, { lotId: params.id, accountId: params.account });
  });

  router.post('/lots/closed', { summary: 'Close a lot as sold or finished', authenticated: true, body: { type: 'lots', input: closeLotInput, omit: ['lotId'], id: 'required' }, response: 'lots', fields: { in: 'body', names: { lotId: 'id' } } }, async ({ ctx, body }) => {
    const { id, attributes } = parseDocument(inputDocument('lots'), body).data;
    const { view } = await winners.close(ctx, { lotId: id, ...fromWire(attributes, ['state']) });
    const { data } = await renderLots(router.services, ctx, view, new Set());
    return { data: data[0] };
  });

  router.put('/lots/:id/winner_details', { summary: 'Set the winner’s invoice, fees and delivery details', authenticated: true, body: { type: 'winner_details', input: winnerDetailsInput, omit: ['lotId'], id: 'optional' }, response: 'winner_details' }, async ({ ctx, params, body }) => {
    const { id, attributes } = parseDocument(inputDocument('winner_details'), body).data;
    requirePathId(id, params.id, 'data.id must be the id of the lot in the path', 'invalid');
    const { details } = await winners.setWinnerDetails(ctx, { lotId: params.id, ...fromWire(attributes, WINNER_DETAILS_FIELDS) });
    return { data: presentWinnerDetails(details) };
  });
}
