import { inputDocument, parseDocument } from '../../rest/document';
import type { AppRouter } from '../../rest/router';
import { presentLot } from '../lots/lots.presenter';
import { presentParticipant, presentWinnerDetails } from './trading.presenter';

/** Participation, buy now, winners, rejection, closing and winner details (INTERFACE.md §4.5). */
export function tradingRoutes(router: AppRouter): void {
  const { participation, winners, lots } = router.services;

  router.post('/lots/:id/participation_requests', { authenticated: true, status: 204 }, async ({ rc, params, body }) => {
    const { data } = parseDocument(inputDocument('participation_requests'), body);
    await participation.participate(rc, params.id, data);
  });

  router.patch('/v2/lots/:id/participants/:account', { authenticated: true }, async ({ rc, params }) => ({
    data: presentParticipant(await participation.buyNow(rc, params.id, params.account)),
  }));

  router.post('/v2/lots/:id/winners', { authenticated: true }, async ({ rc, params, body }) => {
    const { data } = parseDocument(inputDocument('participants'), body);
    return { data: presentParticipant((await winners.chooseWinner(rc, params.id, data)).winner) };
  });

  router.delete('/v2/lots/:id/participants/:account', { authenticated: true, status: 204 }, async ({ rc, params }) => {
    await winners.reject(rc, params.id, params.account);
  });

  router.post('/lots/closed', { authenticated: true }, async ({ rc, body }) => {
    const { data } = parseDocument(inputDocument('lots'), body);
    const { lot } = await winners.close(rc, data);
    const view = await lots.get(rc, lot.id);
    const resource = presentLot(view.lots[0], { convert: view.convert, callbackIds: [] });
    return { data: { ...resource, relationships: view.relationships.get(lot.id) ?? resource.relationships } };
  });

  router.put('/lots/:id/winner_details', { authenticated: true }, async ({ rc, params, body }) => {
    const { data } = parseDocument(inputDocument('winner_details'), body);
    return { data: presentWinnerDetails((await winners.setWinnerDetails(rc, params.id, data)).details) };
  });
}
