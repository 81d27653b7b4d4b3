import { inputDocument, parseDocument, type Resource, type TopLevel } from '../../rest/document';
import { cursorLinks } from '../../rest/pagination';
import type { AppRouter } from '../../rest/router';
import type { DepositFilter } from './deposits.listing';
import { presentDeposit, presentDepositState, presentParticipant } from './trading.presenter';
import { DEPOSIT_INDEX_QUERY } from './trading.schema';

/** Deposits (INTERFACE.md §4.6). */
export function depositsRoutes(router: AppRouter): void {
  const { deposits } = router.services;

  router.get('/deposits', { authenticated: true, query: DEPOSIT_INDEX_QUERY }, async (req): Promise<TopLevel> => {
    const page = req.query.page as { cursor: string | null; limit: number };
    const withParticipants = req.query.include.has('participant');
    const view = await deposits.list(
      req.rc,
      { filter: req.query.filters as DepositFilter, sort: req.query.sort as { key: 'created_at'; desc: boolean }, cursor: page.cursor, limit: page.limit },
      withParticipants,
    );
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

  router.patch('/deposits/:id', { authenticated: true }, async ({ rc, params, body }) => {
    const { data } = parseDocument(inputDocument('deposits'), body);
    return { data: presentDepositState((await deposits.setState(rc, params.id, data)).deposit) };
  });
}
