import { looseDocument } from '../credentials';
import { allFromWire } from '../../rest/fields';
import { inputDocument, parseDocument, type TopLevel } from '../../rest/document';
import { numberLinks } from '../../rest/pagination';
import type { ParsedQuery } from '../../rest/query';
import type { AppRouter } from '../../rest/router';
import { markReadInput, sendInput, type MessageListInput } from './messages.input';
import { presentDialog, presentMessage, presentRelated, presentUnread } from './messages.presenter';
import { checkMessageFilters, DIALOGS_QUERY, MESSAGE_INDEX_QUERY, UNREAD_QUERY } from './messages.schema';

/** The parsed filters under the input's names. */
function filtersOf(query: ParsedQuery): Record<string, unknown> {
  checkMessageFilters(query);
  return allFromWire(query.filters);
}

/** Where the query string puts the inputs' fields. */
const FILTERS = { receivers: 'filter.receivers', receiver: 'filter.receiver', sender: 'filter.sender', with: 'filter.with', platform: 'filter.platform', search: 'filter.search' };
const QUERY_FIELDS = { in: 'query', names: { ...FILTERS, lotId: 'filter.lotId' } } as const;
const LIST_FIELDS = { in: 'query', names: { ...FILTERS, lotIdFilter: 'filter.lotId', page: 'page.number', size: 'page.size' } } as const;

/** Messages: every operation needs a caller. */
export function messagesRoutes(router: AppRouter): void {
  const { messages } = router.services;

  router.post('/messages', { summary: 'Send a message about a lot', authenticated: true, status: 204, body: { type: 'messages', input: sendInput } }, async ({ ctx, body }) => {
    await messages.send(ctx, allFromWire(parseDocument(inputDocument('messages'), body).data.attributes));
  });

  router.get('/lots/:id/messages', { summary: 'List the messages of a lot', authenticated: true, response: ['messages'], query: MESSAGE_INDEX_QUERY, fields: LIST_FIELDS }, async (req): Promise<TopLevel> => {
    const page = req.query.page as { number: number; size: number };
    const sort = req.query.sort as MessageListInput['sort'];
    const { lotId, ...filters } = filtersOf(req.query);
    const result = await messages.list(req.ctx, { ...filters, lotIdFilter: lotId, lotId: req.params.id, sort, page: page.number, size: page.size });
    const related = req.query.include.size
      ? await messages.related(req.ctx, result.items.map((m) => ({ lotId: m.lotId, members: [m.sender, m.receiver] })), req.query.include)
      : null;
    return {
      data: result.items.map(presentMessage),
      ...(related ? { included: presentRelated(related) } : {}),
      links: numberLinks(req.path, req.search, result.page, result.size, result.total, req.koa.originalUrl),
      meta: { on_page: result.items.length, total_items: result.total },
    };
  });

  router.get('/messages/dialogs', { summary: 'List the caller’s dialogs', authenticated: true, response: ['dialogs'], query: DIALOGS_QUERY, fields: QUERY_FIELDS }, async ({ ctx, query }): Promise<TopLevel> => {
    const dialogs = await messages.dialogs(ctx, filtersOf(query));
    const related = query.include.size ? await messages.related(ctx, dialogs.map((d) => ({ lotId: d.lotId, members: [d.accountId, d.withId] })), query.include) : null;
    return { data: dialogs.map(presentDialog), ...(related ? { included: presentRelated(related) } : {}) };
  });

  router.get('/messages/unread', { summary: 'Count unread messages', authenticated: true, response: 'unread_messages', query: UNREAD_QUERY, fields: QUERY_FIELDS }, async ({ ctx, query }) => {
    const filters = filtersOf(query);
    const count = await messages.unread(ctx, filters);
    return { data: presentUnread((filters.receiver as string | undefined) ?? ctx.caller?.accountId ?? '', count) };
  });

  // Served with and without the trailing slash; `data.type` is optional.
  const markRead = looseDocument();
  for (const path of ['/accounts/:id/messages', '/accounts/:id/messages/']) {
    router.patch(path, { summary: 'Mark messages read', authenticated: true, status: 204, body: { type: 'messages', input: markReadInput, omit: ['accountId'] } }, async ({ ctx, params, body }) => {
      const attributes = parseDocument(markRead, body).data.attributes;
      await messages.markRead(ctx, { ...allFromWire(attributes), accountId: params.id });
    });
  }
}
