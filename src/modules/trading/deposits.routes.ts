import { inputDocument, parseDocument, requirePathId, type Resource, type TopLevel } from '../../rest/document';
import { fromWire } from '../../rest/fields';
import { cursorLinks } from '../../rest/pagination';
import type { AppRouter } from '../../rest/router';
import { presentDeposit, presentDepositState, presentParticipant } from './trading.presenter';
import { DEPOSIT_INDEX_QUERY } from './trading.schema';
import { depositStateInput } from './trading.input';

/** Deposits. */
export function depositsRoutes(router: AppRouter): void {
  const { deposits } = router.services;

  router.get('/deposits', { summary: 'List deposits', authenticated: true, response: ['deposits'], query: DEPOSIT_INDEX_QUERY, fields: 'query' }, async (req): Promise<TopLevel> => {
    const withParticipants = req.query.include.has('participant');
    const filter = fromWire(req.query.filters, ['state', 'lotId']);
    const view = await deposits.list(req.ctx, { filter, sort: req.query.sort, page: req.query.page, withParticipants });
    const included: Resource[] = [];
    const data = view.items.map((d) => {
      const resource = presentDeposit(d);
      if (!withParticipants) return resource;
      const participant = view.participants.get(d.participantId);
      // One participant per deposit: never a duplicate in `included`.
      if (participant) included.push(presentParticipant(participant));
      return { ...resource, relationships: { participant: { data: participant ? { type: 'participants', id: participant.id } : null } } };
    });
    return {
      data,
      ...(withParticipants ? { included } : {}),
      links: cursorLinks(req.path, req.search, view, req.koa.originalUrl),
      meta: { on_page: data.length },
    };
  });

  router.patch('/deposits/:id', { summary: 'Mark a deposit paid or returned', authenticated: true, body: { type: 'deposits', input: depositStateInput, omit: ['id'], id: 'optional' }, response: 'deposits' }, async ({ ctx, params, body }) => {
    const { id, attributes } = parseDocument(inputDocument('deposits'), body).data;
    requirePathId(id, params.id, 'data.id must be the id of the deposit in the path', 'invalid');
    const { deposit } = await deposits.setState(ctx, { id: params.id, ...fromWire(attributes, ['state']) });
    return { data: presentDepositState(deposit) };
  });
}
