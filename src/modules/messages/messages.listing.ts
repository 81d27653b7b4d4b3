import type { EntityManager } from '@mikro-orm/postgresql';
import { countOf, rowsOf } from '../../db/query';
import { sql, type Sql } from '../../db/sql';
import { Message, type Dialog, type DialogKey } from './messages.entity';
import type { DialogsQuery, MessageFilterQuery, MessageListQuery, UnreadQuery } from './messages.input';
import type { ListWindow, WindowPage } from '../../core/list-window';
import { windowOf } from '../../db/window';

/** A lot's unread messages, counted (bigint, as text). */
interface UnreadOfLot {
  lot_id: string;
  n: string;
}

/**
 * Which conversations a reader sees (built by `conversationScope` of core/policies): those it
 * takes part in, and every conversation about a lot whose publisher is one of `publishers`.
 */
export interface ReadScope {
  accountId: string;
  publishers: string[];
}

const COLUMNS = sql`m.id, m.lot_id, m.sender, m.receiver, m.ref_message_id, m.text, m.read_at, m.created_at`;
const MESSAGES = sql`messages m join lots l on l.id = m.lot_id`;

/** Conversations of the scope; `a`/`b` are the two accounts, `publisher` the lot's publisher. */
function inScope(scope: ReadScope, a: Sql, b: Sql, publisher: Sql): Sql {
  const visible = [sql`${a} = ${scope.accountId}`, sql`${b} = ${scope.accountId}`];
  if (scope.publishers.length) visible.push(sql`${publisher} in (${sql.list(scope.publishers)})`);
  return sql.or(visible);
}

/** Messages whose sender belongs to one of the platforms (a platform account belongs to itself). */
const fromPlatforms = (platforms: readonly string[], sender: Sql) =>
  sql`exists (select 1 from accounts s where s.id = ${sender} and s.platform_id in (${sql.list(platforms)}))`;

/** The messages of the lot in the scope that match the filters. */
function messagesWhere(lotId: string, scope: ReadScope, q: MessageFilterQuery): Sql[] {
  const where = [sql`m.lot_id = ${lotId}`, inScope(scope, sql`m.sender`, sql`m.receiver`, sql`l.publisher_id`)];
  if (q.receivers) where.push(sql`m.receiver in (${sql.list(q.receivers)})`);
  if (q.sender) where.push(sql`m.sender = ${q.sender}`);
  if (q.lotId) where.push(sql`m.lot_id = ${q.lotId}`);
  if (q.platform) where.push(fromPlatforms(q.platform, sql`m.sender`));
  if (q.search) where.push(sql`m.search @@ websearch_to_tsquery('simple', ${q.search})`);
  return where;
}

/** One window of a lot's messages, newest first, paged in the database (`lotMessagesConnection`): one statement, count included. */
export async function windowOfMessages(em: EntityManager, lotId: string, scope: ReadScope, q: MessageFilterQuery, window: ListWindow): Promise<WindowPage<Message>> {
  const page = await windowOf<Record<string, unknown>>(em, { columns: COLUMNS, from: MESSAGES, where: sql.and(messagesWhere(lotId, scope, q)), order: { key: sql`m.created_at`, id: sql`m.id` } }, window);
  return { ...page, items: page.items.map((row) => em.map(Message, row)) };
}

/** The messages of `ids` in the scope, any lot (`node(id:)`): one statement; ids of no message or out of the scope are absent. */
export async function messagesInScope(em: EntityManager, ids: readonly string[], scope: ReadScope): Promise<Message[]> {
  if (!ids.length) return [];
  const where = [sql`m.id in (${sql.list(ids)})`, inScope(scope, sql`m.sender`, sql`m.receiver`, sql`l.publisher_id`)];
  const found = await rowsOf<Record<string, unknown>>(em, sql`select ${COLUMNS} from ${MESSAGES} where ${sql.and(where)}`);
  return found.map((row) => em.map(Message, row));
}

/** One number/size page of a lot's messages and the count of every match: one statement each. */
export async function listMessages(em: EntityManager, lotId: string, scope: ReadScope, q: MessageListQuery): Promise<{ items: Message[]; total: number }> {
  const where = messagesWhere(lotId, scope, q);
  const order = sql.orderBy([sql`m.created_at`, sql`m.id`], q.sort.desc);
  const items = await rowsOf<Record<string, unknown>>(
    em,
    sql`select ${COLUMNS} from ${MESSAGES} where ${sql.and(where)} order by ${order} limit ${q.size} offset ${q.page * q.size}`,
  );
  return { items: items.map((row) => em.map(Message, row)), total: await countOf(em, sql`${MESSAGES} where ${sql.and(where)}`) };
}

/**
 * The dialogs of `accounts`: one row per (account, companion, lot) with a message in either
 * direction, the companion's unread messages to the account counted; latest conversation first.
 */
export async function listDialogs(em: EntityManager, accounts: readonly string[], scope: ReadScope, q: DialogsQuery, limit: number | null): Promise<Dialog[]> {
  const found = await rowsOf<DialogRow>(em, sql`select * from ${dialogsOf(accounts, scope, q)} order by last_at desc, lot_id desc, account, companion limit ${limit}`);
  return found.map(dialogOf);
}

/**
 * One window of the dialogs `listDialogs` finds, latest first, paged in the database
 * (`messageDialogsConnection`): one statement, count included. Dialogs whose latest messages
 * were sent at the same instant follow the key `<lot>:<account>:<companion>`, descending.
 */
export async function windowOfDialogs(em: EntityManager, accounts: readonly string[], scope: ReadScope, q: DialogsQuery, window: ListWindow): Promise<WindowPage<Dialog>> {
  const page = await windowOf<DialogRow>(
    em,
    { columns: sql`d.*`, from: dialogsOf(accounts, scope, q), where: sql`true`, order: { key: sql`d.last_at`, id: sql`d.lot_id::text || ':' || d.account || ':' || d.companion`, textId: true } },
    window,
  );
  return { ...page, items: page.items.map(dialogOf) };
}

/** The dialogs of `keys` in the scope (`node(id:)`): one statement; keys of no dialog or out of the scope are absent. */
export async function dialogsInScope(em: EntityManager, keys: readonly DialogKey[], scope: ReadScope): Promise<Dialog[]> {
  if (!keys.length) return [];
  const only = sql.or(keys.map((k) => sql`c.lot_id = ${k.lotId} and c.account = ${k.accountId} and c.companion = ${k.withId}`));
  const found = await rowsOf<DialogRow>(em, sql`select * from ${dialogsOf([...new Set(keys.map((k) => k.accountId))], scope, {}, [only])}`);
  return found.map(dialogOf);
}

/** A dialog as `dialogsOf` selects it from `messages`: one per lot, account and companion. */
interface DialogRow {
  lot_id: string;
  account: string;
  companion: string;
  unread: string;
  last_at: Date;
}

const dialogOf = (r: DialogRow): Dialog => ({ lotId: String(r.lot_id), accountId: r.account, withId: r.companion, unread: Number(r.unread), lastMessageAt: new Date(r.last_at) });

/** The dialogs of `accounts` in the scope, as a table `d`: one row per (account, companion, lot) with its unread count and latest message's time. */
function dialogsOf(accounts: readonly string[], scope: ReadScope, q: DialogsQuery, only: Sql[] = []): Sql {
  const where = [inScope(scope, sql`c.account`, sql`c.companion`, sql`l.publisher_id`), ...only];
  if (q.with) where.push(sql`c.companion = ${q.with}`);
  if (q.lotId) where.push(sql`c.lot_id = ${q.lotId}`);
  return sql`(with c as (
       select lot_id, sender as account, receiver as companion, created_at, false as unread from messages where sender in (${sql.list(accounts)})
       union all
       select lot_id, receiver, sender, created_at, read_at is null from messages where receiver in (${sql.list(accounts)})
     )
     select c.lot_id, c.account, c.companion, count(*) filter (where c.unread) as unread, max(c.created_at) as last_at
       from c join lots l on l.id = c.lot_id
      where ${sql.and(where)}
      group by c.lot_id, c.account, c.companion) d`;
}

/** How many unread messages match: one statement. */
export async function countUnread(em: EntityManager, receiver: string, scope: ReadScope, q: UnreadQuery): Promise<number> {
  const where = [sql`m.read_at is null`, sql`m.receiver = ${receiver}`, inScope(scope, sql`m.sender`, sql`m.receiver`, sql`l.publisher_id`)];
  if (q.sender) where.push(sql`m.sender = ${q.sender}`);
  if (q.lotId) where.push(sql`m.lot_id = ${q.lotId}`);
  if (q.platform) where.push(fromPlatforms(q.platform, sql`m.sender`));
  return countOf(em, sql`${MESSAGES} where ${sql.and(where)}`);
}

/** The receiver's unread messages per lot, for a page of lots: one statement. Lots with none are absent. */
export async function unreadPerLot(em: EntityManager, receiver: string, lotIds: readonly string[]): Promise<Map<string, number>> {
  if (!lotIds.length) return new Map();
  const found = await rowsOf<UnreadOfLot>(
    em,
    sql`select lot_id, count(*) as n from messages where receiver = ${receiver} and read_at is null and lot_id in (${sql.list(lotIds)}) group by lot_id`,
  );
  return new Map(found.map((r) => [String(r.lot_id), Number(r.n)]));
}
