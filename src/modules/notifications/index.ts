// What other areas may use of notifications: nothing outside this folder imports another file of it.
export type { PublishedNotification } from './notifications.bus';
export { NotificationType } from './notifications.entity';
export { staffOf } from './notifications.recipients';
export type { BatchRow, NotificationsService } from './notifications.service';
export { notificationGql, NotificationGql } from './notifications.types';
export { noticeOf, type Notice, type NoticeKind } from './notifications.notices';
