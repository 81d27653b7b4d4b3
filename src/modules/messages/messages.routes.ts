import { looseDocument } from '../credentials/credentials.schema';
import { inputDocument, parseDocument, type TopLevel } from '../../rest/document';
import { numberLinks } from '../../rest/pagination';
import type { ParsedQuery } from '../../rest/query';
import type { AppRouter } from '../../rest/router';
import type { DialogsInput, MessageListInput, UnreadInput } from './messages.input';
import { presentDialog, presentMessage, presentRelated, presentUnread } from './messages.presenter';
import { checkMessageFilters, DIALOGS_QUERY, MESSAGE_INDEX_QUERY, UNREAD_QUERY } from './messages.schema';

/** The parsed filters as the service's input: the filters keep their names. */
function filtersOf<T>(query: ParsedQuery): T {
  checkMessageFilters(query);
  return { ...query.filters } as T;
}

/** Messages (INTERFACE.md §4.7): every operation needs a caller. */
export function messagesRoutes(router: AppRouter): void {
  const { messages } = router.services;

  router.post('/messages', { authenticated: true, status: 204 }, async ({ rc, body }) => {
    await messages.send(rc, parseDocument(inputDocument('messages'), body).data);
  });

  router.get('/lots/:id/messages', { authenticated: true, query: MESSAGE_INDEX_QUERY }, async (req): Promise<TopLevel> => {
    const page = req.query.page as { number: number; size: number };
    const input: MessageListInput = { ...filtersOf(req.query), sort: req.query.sort as MessageListInput['sort'], page: page.number, size: page.size };
    const result = await messages.list(req.rc, req.params.id, input);
    const related = req.query.include.size
      ? await messages.related(req.rc, result.items.map((m) => ({ lotId: m.lotId, members: [m.sender, m.receiver] })), req.query.include)
      : null;
    return {
      data: result.items.map(presentMessage),
      ...(related ? { included: presentRelated(related) } : {}),
      links: numberLinks(req.path, req.search, result.page, result.size, result.total, req.koa.originalUrl),
      meta: { on_page: result.items.length, total_items: result.total },
    };
  });

  router.get('/messages/dialogs', { authenticated: true, query: DIALOGS_QUERY }, async ({ rc, query }): Promise<TopLevel> => {
    const dialogs = await messages.dialogs(rc, filtersOf<DialogsInput>(query));
    const related = query.include.size ? await messages.related(rc, dialogs.map((d) => ({ lotId: d.lotId, members: [d.accountId, d.withId] })), query.include) : null;
    return { data: dialogs.map(presentDialog), ...(related ? { included: presentRelated(related) } : {}) };
  });

  router.get('/messages/unread', { authenticated: true, query: UNREAD_QUERY }, async ({ rc, query }) => {
    const input = filtersOf<UnreadInput>(query);
    const count = await messages.unread(rc, input);
    return { data: presentUnread(input.receiver ?? rc.caller?.accountId ?? '', count) };
  });

  // PROTOCOL.md §9: served with and without the trailing slash; `data.type` is optional.
  const markRead = looseDocument();
  for (const path of ['/accounts/:id/messages', '/accounts/:id/messages/']) {
    router.patch(path, { authenticated: true, status: 204 }, async ({ rc, params, body }) => {
      await messages.markRead(rc, params.id, parseDocument(markRead, body).data);
    });
  }
}
