import { invalid } from '../../core/errors';
import { inputDocument, parseDocument, requirePathId } from '../../rest/document';
import { fromWire } from '../../rest/fields';
import type { AppRouter } from '../../rest/router';
import { renderLots } from '../lots/lots.routes';
import { WINNER_DETAILS_FIELDS } from './trading.input';
import { presentParticipant, presentWinnerDetails } from './trading.presenter';

/** The body's lot_id is optional; given, it must name the path's lot (a document about another lot is malformed). */
function checkLotId(given: unknown, lotId: string): void {
  if (given === undefined) return;
  const integer = (typeof given === 'number' && Number.isSafeInteger(given) && given >= 0) || (typeof given === 'string' && /^\d{1,18}$/.test(given));
  if (!integer) throw invalid('invalid_field', 'lot_id: must be an integer', { pointer: '/data/attributes/lot_id' });
  if (String(given) !== lotId) throw invalid('invalid_field', 'lot_id must be the id of the lot in the path', { pointer: '/data/attributes/lot_id' });
}

/** Participation, buy now, winners, rejection, closing and winner details (INTERFACE.md §4.5). */
export function tradingRoutes(router: AppRouter): void {
  const { participation, winners, lots } = router.services;

  router.post('/lots/:id/participation_requests', { authenticated: true, status: 204 }, async ({ rc, params, body }) => {
    const { attributes } = parseDocument(inputDocument('participation_requests'), body).data;
    const stated = fromWire(attributes, ['lotId', 'buyNow']);
    checkLotId(stated.lotId, params.id);
    await participation.participate(rc, { lotId: params.id, buyNow: stated.buyNow });
  });

  router.patch('/v2/lots/:id/participants/:account', { authenticated: true }, async ({ rc, params }) => ({
    data: presentParticipant(await participation.buyNow(rc, { lotId: params.id, accountId: params.account })),
  }));

  router.post('/v2/lots/:id/winners', { authenticated: true, fields: { in: 'body', names: { participantId: 'id' } } }, async ({ rc, params, body }) => {
    const { id, attributes } = parseDocument(inputDocument('participants'), body).data;
    const { winner } = await winners.chooseWinner(rc, { lotId: params.id, participantId: id, ...fromWire(attributes, ['buyNow', 'accountId']) });
    return { data: presentParticipant(winner) };
  });

  router.delete('/v2/lots/:id/participants/:account', { authenticated: true, status: 204 }, async ({ rc, params }) => {
    await winners.reject(rc, { lotId: params.id, accountId: params.account });
  });

  router.post('/lots/closed', { authenticated: true, fields: { in: 'body', names: { lotId: 'id' } } }, async ({ rc, body }) => {
    const { id, attributes } = parseDocument(inputDocument('lots'), body).data;
    const { view } = await winners.close(rc, { lotId: id, ...fromWire(attributes, ['state']) });
    const { data } = await renderLots(lots, rc, view, new Set());
    return { data: data[0] };
  });

  router.put('/lots/:id/winner_details', { authenticated: true }, async ({ rc, params, body }) => {
    const { id, attributes } = parseDocument(inputDocument('winner_details'), body).data;
    requirePathId(id, params.id, 'data.id must be the id of the lot in the path', 'invalid');
    const { details } = await winners.setWinnerDetails(rc, { lotId: params.id, ...fromWire(attributes, WINNER_DETAILS_FIELDS) });
    return { data: presentWinnerDetails(details) };
  });
}
