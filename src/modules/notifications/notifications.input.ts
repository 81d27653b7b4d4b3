import { z } from 'zod';
import { REPORTED_TYPES } from './notifications.entity';

export const NOTIFICATION_SORTS = ['created_at'] as const;
export const DEFAULT_NOTIFICATION_PAGE_SIZE = 15;
const MAX_PAGE_SIZE = 100;
/** At most this many notifications are marked read by one request. */
export const MAX_MARK_READ = 100;
const MAX_META_KEYS = 20;

/** A notification id as paths and bodies give it: an integer-valued string (or a JSON integer). */
export function notificationIdOf(value: unknown): string | null {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value);
  return typeof value === 'string' && /^\d{1,18}$/.test(value) ? value.replace(/^0+(?=\d)/, '') : null;
}

/** A listing of the caller's unread notifications. */
export const listInput = z.object({
  sort: z.object({ key: z.enum(NOTIFICATION_SORTS), desc: z.boolean() }).default({ key: 'created_at', desc: true }),
  page: z.number().int().min(0).default(0),
  size: z.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_NOTIFICATION_PAGE_SIZE),
});
export type NotificationListInput = z.input<typeof listInput>;

/** Meta of a notification: an object of strings. */
export const metaInput = z
  .record(z.string().min(1).max(64), z.string().max(1000), { error: 'must be an object of strings' })
  .refine((m) => Object.keys(m).length <= MAX_META_KEYS, `at most ${MAX_META_KEYS} keys`);

/**
 * POST /notifications/events. z.number()/z.string() first: a missing member is
 * then `missing_field`.
 */
export const eventInput = z.object({
  type: z
    .number({ error: 'must be an integer' })
    .refine((n) => (REPORTED_TYPES as readonly number[]).includes(n), `must be one of ${REPORTED_TYPES.join(', ')}`),
  recipient: z.string().min(1).max(56),
  meta: metaInput.default({}),
});
export type NotificationEventInput = z.input<typeof eventInput>;

/** POST /notifications: the notifications to mark read, all or none. */
export interface MarkManyReadInput {
  ids: readonly unknown[];
}
