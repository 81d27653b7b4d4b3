import { z } from 'zod';
import type { QuerySpec } from '../../rest/query';
import { DEFAULT_NOTIFICATION_PAGE_SIZE, NOTIFICATION_SORTS } from './notifications.input';

/** GET /notifications: newest first by default. */
export const NOTIFICATIONS_QUERY: QuerySpec = {
  sorts: NOTIFICATION_SORTS,
  defaultSort: '-created_at',
  page: 'number',
  defaultPageSize: DEFAULT_NOTIFICATION_PAGE_SIZE,
};

/** POST /notifications: `data` is an array of `{type: notifications, id}`; the ids are the service's to check. */
export const markManyDocument = z.object({
  data: z.array(
    z.object({
      type: z.literal('notifications', { error: 'must be "notifications"' }),
      id: z.unknown(),
    }),
    { error: 'must be an array of notification identifiers' },
  ),
});
