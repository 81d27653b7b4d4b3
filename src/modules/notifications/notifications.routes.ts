import { inputDocument, parseDocument } from '../../rest/document';
import { numberLinks } from '../../rest/pagination';
import type { AppRouter } from '../../rest/router';
import { presentCount, presentNotification } from './notifications.presenter';
import { markManyDocument, NOTIFICATIONS_QUERY } from './notifications.schema';

/** Notifications (INTERFACE.md §4.13, PROTOCOL.md §7): the recipient only; events from platforms. */
export function notificationsRoutes(router: AppRouter): void {
  const { notifications } = router.services;

  router.get('/counts', { authenticated: true }, async ({ rc }) => ({ data: (await notifications.counts(rc)).map(presentCount) }));

  const listFields = { in: 'query', names: { page: 'page.number', size: 'page.size' } } as const;
  router.get('/notifications', { authenticated: true, query: NOTIFICATIONS_QUERY, fields: listFields }, async (req) => {
    const page = req.query.page as { number: number; size: number };
    const result = await notifications.list(req.rc, { sort: req.query.sort as { key: 'created_at'; desc: boolean }, page: page.number, size: page.size });
    return {
      data: result.items.map(presentNotification),
      links: numberLinks(req.path, req.search, result.page, result.size, result.total, req.koa.originalUrl),
      meta: { on_page: result.items.length, total_items: result.total },
    };
  });

  router.delete('/notifications/:id', { authenticated: true, status: 204 }, async ({ rc, params }) => {
    await notifications.markRead(rc, params.id);
  });

  router.post('/notifications', { authenticated: true, status: 204, fields: 'list' }, async ({ rc, body }) => {
    const { data } = parseDocument(markManyDocument, body);
    await notifications.markManyRead(rc, { ids: data.map((item) => item.id) });
  });

  router.post('/notifications/events', { authenticated: true, status: 204 }, async ({ rc, body }) => {
    notifications.requireReporter(rc);
    const attributes = parseDocument(inputDocument('notification_events'), body).data.attributes ?? {};
    await notifications.report(rc, { type: attributes.type, recipient: attributes.recipient, meta: attributes.meta });
  });
}
