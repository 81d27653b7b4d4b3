import type { EntityManager } from '@mikro-orm/postgresql';
import type { Caller, RequestContext } from '../../core/context';
import type { ErrorCode } from '../../core/error-codes';
import { DomainError, forbidden, invalid, notFound, type ErrorItem } from '../../core/errors';
import { requireCaller } from '../../core/policies';
import { inTransaction, type TransactionScope } from '../../core/transaction';
import { validateInput, type Untrusted } from '../../core/validate';
import type { ListWindow, WindowPage } from '../../core/list-window';
import { listBound } from '../../core/page';
import { windowOf } from '../../db/window';
import { timestamp } from '../../db/raw';
import { rowsOf } from '../../db/query';
import { sql, type Sql } from '../../db/sql';
import { Account } from '../accounts';
import { AccountType } from '../../core/account-type';
import { NotificationBus, type PublishedNotification } from './notifications.bus';
import { Notification, NotificationType, typeStrOf } from './notifications.entity';
import {
  eventInput,
  listInput,
  MAX_MARK_READ,
  notificationIdOf,
  type MarkManyReadInput,
  type NotificationEventInput,
  type NotificationListInput,
} from './notifications.input';

export interface NotificationPage {
  items: Notification[];
  total: number;
  page: number;
  size: number;
}

export interface NotificationCount {
  type: NotificationType;
  count: number;
}

const idAt = (index: number) => ({ field: `ids.${index}` });

/** A row `insertBatch` answers. */
export interface BatchRow {
  id: string;
  recipient: string;
  type: NotificationType;
  meta: Record<string, string>;
  created_at: string;
}

export const publishedOf = (n: Notification): PublishedNotification => ({
  id: n.id,
  recipient: n.recipient,
  type: n.type,
  typeStr: typeStrOf(n.type),
  meta: n.meta,
  createdAt: n.createdAt,
});

/**
 * Notifications: other services emit them inside their
 * own transactions; each recipient reads its unread ones, counts them per type and marks them
 * read; platforms report the types that come from outside the interface. A notification is
 * announced on the bus only once the transaction that created it committed.
 */
/** Unread notifications of one type, counted (bigint, as text). */
interface TypeCount {
  type: NotificationType;
  n: string;
}

export class NotificationsService {
  constructor(readonly bus: NotificationBus = new NotificationBus()) {}

  /**
   * Creates one notification of `type` for each distinct recipient, in the caller's transaction
   * (`em` and `scope` of `inTransaction`), and announces them on the bus after it commits; a
   * rollback leaves no row and announces nothing. Recipients must be existing account ids.
   */
  async emit(em: EntityManager, scope: TransactionScope, type: NotificationType, recipients: readonly string[], meta: Record<string, string> = {}): Promise<Notification[]> {
    const created = [...new Set(recipients)].map((recipient) => em.create(Notification, { recipient, type, meta: { ...meta } }));
    if (!created.length) return [];
    await em.flush();
    scope.afterCommit(() => this.announce(created.map(publishedOf)));
    return created;
  }

  /**
   * The batch API for a writer that must stay one statement (the bid round): the `insert` of one
   * notification of `type` per row of `recipients`, a query answering `(recipient, n)`, created in
   * the order of `n` then recipient. Use it as a CTE of the caller's statement; it answers the
   * rows `publishedBatch` reads, which the caller announces once it committed.
   */
  insertBatch(type: NotificationType, recipients: Sql, meta: Record<string, string>): Sql {
    return this.insertRows(type, sql`select r.recipient, r.n, ${JSON.stringify(meta)}::jsonb as meta from (${recipients}) r`);
  }

  /** `insertBatch` for rows that carry their own meta: a query answering `(recipient, n, meta)`, meta a jsonb object of strings. */
  insertRows(type: NotificationType, rows: Sql): Sql {
    return sql`insert into notifications (recipient, type, meta)
       select r.recipient, ${type}, r.meta from (${rows}) r order by r.n, r.recipient
       returning id::text, recipient, type, meta, created_at::text`;
  }

  /** The notifications `insertBatch` answered, as JSON (`json_agg`) or as rows. */
  publishedBatch(rows: readonly BatchRow[]): PublishedNotification[] {
    return rows.map((n) => ({ id: n.id, recipient: n.recipient, type: n.type, typeStr: typeStrOf(n.type), meta: n.meta, createdAt: timestamp(n.created_at) as Date }));
  }

  /** Announces committed notifications to their recipients' subscriptions. */
  announce(published: readonly PublishedNotification[]): void {
    for (const n of published) this.bus.publish(n);
  }

  /** GET /notifications: a page of the caller's unread notifications, newest first by default. */
  async list(ctx: RequestContext, input: Untrusted<NotificationListInput>): Promise<NotificationPage> {
    const caller = requireCaller(ctx);
    const q = validateInput(listInput, input);
    const dir = q.sort.desc ? 'desc' : 'asc';
    const [items, total] = await ctx.em.findAndCount(
      Notification,
      { recipient: caller.accountId, readAt: null },
      { orderBy: { createdAt: dir, id: dir }, limit: q.size, offset: q.page * q.size },
    );
    return { items, total, page: q.page, size: q.size };
  }

  /** A window of the caller's unread notifications, newest first, paged in the database (`Viewer.notifications`). */
  async unreadWindow(ctx: RequestContext, window: ListWindow): Promise<WindowPage<Notification>> {
    const caller = requireCaller(ctx);
    listBound(window.size, window.fromEnd ? 'last' : 'first');
    const page = await windowOf<{ id: string; recipient: string; type: NotificationType; meta: Record<string, string>; created_at: unknown }>(
      ctx.em,
      {
        columns: sql`n.id, n.recipient, n.type, n.meta, n.created_at`,
        from: sql`notifications n`,
        where: sql`n.recipient = ${caller.accountId} and n.read_at is null`,
        order: { key: sql`n.created_at`, id: sql`n.id` },
      },
      window,
    );
    const items = page.items.map((r) => Object.assign(new Notification(), { id: String(r.id), recipient: r.recipient, type: r.type, meta: r.meta, readAt: null, createdAt: timestamp(r.created_at) as Date }));
    return { ...page, items };
  }

  /**
   * One notification of the caller's own, read or not (`node(id:)`): another account's is answered
   * as an id of no notification, so that one hidden from the caller cannot be told from a missing one.
   */
  async ownById(ctx: RequestContext, id: string): Promise<Notification> {
    const caller = requireCaller(ctx);
    const notificationId = notificationIdOf(id);
    const row = notificationId === null ? null : await ctx.em.findOne(Notification, { id: notificationId, recipient: caller.accountId });
    if (!row) throw missing();
    return row;
  }

  /** GET /counts: the caller's unread notifications counted per type, types with none left out, by type. */
  async counts(ctx: RequestContext): Promise<NotificationCount[]> {
    const caller = requireCaller(ctx);
    const rows = await rowsOf<TypeCount>(
      ctx.em,
      sql`select type, count(*) as n from notifications where recipient = ${caller.accountId} and read_at is null group by type order by type`,
    );
    return rows.map((r) => ({ type: r.type, count: Number(r.n) }));
  }

  /**
   * DELETE /notifications/{id}: marks one of the caller's notifications read (again: no change).
   * Someone else's is missing, as `ownById` answers it, so that the answer tells no one it exists.
   */
  async markRead(ctx: RequestContext, id: string): Promise<void> {
    const caller = requireCaller(ctx);
    const notificationId = notificationIdOf(id);
    if (notificationId === null) throw missing();
    await inTransaction(ctx, async (em) => {
      const row = await em.findOne(Notification, { id: notificationId, recipient: caller.accountId });
      if (!row) throw missing();
      await em.nativeUpdate(Notification, { id: notificationId, readAt: null }, { readAt: new Date() });
    });
  }

  /**
   * POST /notifications: marks several of the caller's notifications read; all or none. Malformed
   * ids: 400; ids of none of the caller's notifications, someone else's too (as `markRead`): 404,
   * one error per id at fault.
   */
  async markManyRead(ctx: RequestContext, { ids }: MarkManyReadInput): Promise<void> {
    const caller = requireCaller(ctx);
    if (ids.length > MAX_MARK_READ) throw invalid('too_many_items', `at most ${MAX_MARK_READ} notifications at once`, { field: 'ids' });
    const parsed = ids.map((raw) => notificationIdOf(raw));
    const malformed: ErrorItem[] = [];
    ids.forEach((raw, i) => {
      if (raw === undefined || raw === null) malformed.push({ code: 'missing_field', detail: 'the notification id is required', source: idAt(i) });
      else if (parsed[i] === null) malformed.push({ code: 'invalid_field', detail: 'must be a notification id (an integer-valued string)', source: idAt(i) });
    });
    if (malformed.length) throw new DomainError('invalid', malformed as [ErrorItem, ...ErrorItem[]]);
    const wanted = [...new Set(parsed as string[])];
    if (!wanted.length) return;
    await inTransaction(ctx, async (em) => {
      const own = new Set((await em.find(Notification, { id: { $in: wanted }, recipient: caller.accountId })).map((r) => r.id));
      const unknown = faults(parsed, (id) => !own.has(id as string), 'notification_not_found', 'no notification with this id');
      if (unknown) throw new DomainError('not_found', unknown);
      await em.nativeUpdate(Notification, { id: { $in: wanted }, readAt: null }, { readAt: new Date() });
    });
  }

  /**
   * POST /notifications/events: a platform reports a notification that comes from outside the
   * interface (types 9–14, 22, 23, 27–29) for an account of its own (the platform itself, an
   * account of the platform, or an admin trusting it); anyone else's account is unknown to it.
   */
  async report(ctx: RequestContext, input: Untrusted<NotificationEventInput>): Promise<Notification> {
    const caller = this.requireReporter(ctx);
    const attrs = validateInput(eventInput, input);
    const [created] = await inTransaction(ctx, async (em, scope) => {
      const recipient = await em.findOne(Account, { id: attrs.recipient, accountType: { $ne: AccountType.Master } });
      const own =
        recipient &&
        (recipient.id === caller.accountId || recipient.platformId === caller.accountId || (recipient.accountType === AccountType.Admin && recipient.trustingPlatforms.includes(caller.accountId)));
      if (!own) throw invalid('recipient_not_found', "recipient is no account of the caller's platform", { field: 'recipient' });
      return this.emit(em, scope, attrs.type as NotificationType, [recipient.id], attrs.meta);
    });
    return created;
  }

  /**
   * The caller of POST /notifications/events: a platform account (else 403). The REST edge asks
   * before it reads the body, so that permission is answered before the body's faults.
   */
  requireReporter(ctx: RequestContext): Caller {
    const caller = requireCaller(ctx);
    if (caller.accountType !== AccountType.Platform) throw forbidden('not_allowed', 'only platform accounts may report notification events');
    return caller;
  }
}

function missing() {
  return notFound('notification_not_found', 'no notification with this id');
}

/** One error item per id that fails `test`, or null when none does. */
function faults(
  ids: (string | null)[],
  test: (id: string | null) => boolean,
  code: ErrorCode,
  detail: string,
): [ErrorItem, ...ErrorItem[]] | null {
  const items: ErrorItem[] = [];
  ids.forEach((id, i) => {
    if (test(id)) items.push({ code, detail, source: idAt(i) });
  });
  return items.length ? (items as [ErrorItem, ...ErrorItem[]]) : null;
}
