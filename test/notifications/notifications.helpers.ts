import { inTransaction } from '../../src/core/transaction';
import { Account } from '../../src/modules/accounts/accounts.entity';
import type { NotificationType } from '../../src/modules/notifications/notifications.entity';
import type { PublishedNotification } from '../../src/modules/notifications/notifications.bus';
import type { TestApp } from '../helpers/app';

/** Emits through the service in a transaction of its own, as another service does inside its own. */
export async function emit(t: TestApp, type: NotificationType, recipients: string[], meta: Record<string, string> = {}): Promise<string[]> {
  const created = await inTransaction({ em: t.orm.em.fork() }, (em, scope) => t.app.services.notifications.emit(em, scope, type, recipients, meta));
  return created.map((n) => n.id);
}

/** Records what the bus announces to a recipient until the returned stop is called. */
export function listen(t: TestApp, recipient: string): { heard: PublishedNotification[]; stop: () => void } {
  const heard: PublishedNotification[] = [];
  const stop = t.app.services.notifications.bus.subscribe(recipient, (n) => heard.push(n));
  return { heard, stop };
}

/** Lets an admin of another platform act as staff of `platformId` (trusting_platforms is set outside the API). */
export async function trust(t: TestApp, adminId: string, platformId: string): Promise<void> {
  await t.orm.em.fork().nativeUpdate(Account, { id: adminId }, { trustingPlatforms: [platformId] });
}

/** The ids of a GET /notifications body, in order. */
export const idsOf = (body: { data: { id: string }[] }) => body.data.map((n) => n.id);

export const markDoc = (...ids: unknown[]) => ({ data: ids.map((id) => ({ type: 'notifications', id })) });
