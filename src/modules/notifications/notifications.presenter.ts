import { rfc3339 } from '../../core/time';
import { resource, type Resource } from '../../rest/document';
import { typeStrOf, type Notification } from './notifications.entity';
import type { NotificationCount } from './notifications.service';

/** A notification resource: `{type: notifications, id, attributes: {type, type_str, meta, created_at}}`. */
export const presentNotification = (n: Notification): Resource =>
  resource('notifications', n.id, { type: n.type, type_str: typeStrOf(n.type), meta: n.meta, created_at: rfc3339(n.createdAt) });

/** One unread count (GET /counts): the id is the type number. */
export const presentCount = (c: NotificationCount): Resource => resource('notifications', c.type, { count: c.count, type_str: typeStrOf(c.type) });
