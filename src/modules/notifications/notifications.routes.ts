import { inputDocument, parseDocument } from '../../rest/document';
import { numberLinks } from '../../rest/pagination';
import type { AppRouter } from '../../rest/router';
import { presentCount, presentNotification } from './notifications.presenter';
import { markManyDocument, NOTIFICATIONS_QUERY } from './notifications.schema';
import { eventInput } from './notifications.input';

/** Notifications: the recipient only; events from platforms. */
export function notificationsRoutes(router: AppRouter): void {
  const { notifications } = router.services;

  router.get('/counts', { summary: 'Count the caller’s unread notifications by type', authenticated: true, response: ['notifications'] }, async ({ ctx }) => ({ data: (await notifications.counts(ctx)).map(presentCount) }));

  const listFields = { in: 'query', names: { page: 'page.number', size: 'page.size' } } as const;
  router.get('/notifications', { summary: 'List the caller’s notifications', authenticated: true, response: ['notifications'], query: NOTIFICATIONS_QUERY, fields: listFields }, async (req) => {
    const page = req.query.page as { number: number; size: number };
    const result = await notifications.list(req.ctx, { sort: req.query.sort as { key: 'created_at'; desc: boolean }, page: page.number, size: page.size });
    return {
      data: result.items.map(presentNotification),
      links: numberLinks(req.path, req.search, result.page, result.size, result.total, req.koa.originalUrl),
      meta: { on_page: result.items.length, total_items: result.total },
    };
  });

  router.delete('/notifications/:id', { summary: 'Mark a notification read', authenticated: true, status: 204 }, async ({ ctx, params }) => {
    await notifications.markRead(ctx, params.id);
  });

  router.post('/notifications', { summary: 'Mark many notifications read', authenticated: true, status: 204, fields: 'list', body: { type: 'notifications', id: 'required', list: true } }, async ({ ctx, body }) => {
    const { data } = parseDocument(markManyDocument, body);
    await notifications.markManyRead(ctx, { ids: data.map((item) => item.id) });
  });

  router.post('/notifications/events', { summary: 'Report an event for a notification (platforms)', authenticated: true, status: 204, body: { type: 'notification_events', input: eventInput } }, async ({ ctx, body }) => {
    notifications.requireReporter(ctx);
    const attributes = parseDocument(inputDocument('notification_events'), body).data.attributes ?? {};
    await notifications.report(ctx, { type: attributes.type, recipient: attributes.recipient, meta: attributes.meta });
  });
}
