import type { EntityManager } from '@mikro-orm/postgresql';
import { Message, type Dialog } from './messages.entity';
import type { DialogsQuery, MessageListQuery, UnreadQuery } from './messages.input';

/**
 * Which conversations a reader sees (built by `conversationScope` of core/policies): those it
 * takes part in, and every conversation about a lot whose publisher is one of `publishers`.
 */
export interface ReadScope {
  accountId: string;
  publishers: string[];
}

const COLUMNS = 'm.id, m.lot_id, m.sender, m.receiver, m.ref_message_id, m.text, m.read_at, m.created_at';
const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

class Where {
  readonly parts: string[] = [];
  readonly params: unknown[] = [];
  add(text: string, ...values: unknown[]): this {
    this.parts.push(text);
    this.params.push(...values);
    return this;
  }
  in(column: string, values: readonly unknown[]): this {
    return this.add(`${column} in (${placeholders(values.length)})`, ...values);
  }
  /** Conversations of the scope; `a`/`b` are the two accounts, `publisher` the lot's publisher. */
  scope(scope: ReadScope, a: string, b: string, publisher: string): this {
    const staff = scope.publishers.length ? ` or ${publisher} in (${placeholders(scope.publishers.length)})` : '';
    return this.add(`(${a} = ? or ${b} = ?${staff})`, scope.accountId, scope.accountId, ...scope.publishers);
  }
  /** Messages whose sender belongs to one of the platforms (a platform account belongs to itself). */
  senderPlatform(platforms: readonly string[] | undefined, sender: string): this {
    if (!platforms) return this;
    return this.add(`exists (select 1 from accounts s where s.id = ${sender} and s.platform_id in (${placeholders(platforms.length)}))`, ...platforms);
  }
  get text(): string {
    return this.parts.length ? this.parts.join(' and ') : 'true';
  }
}

/** One number/size page of a lot's messages and the count of every match: one statement each. */
export async function listMessages(em: EntityManager, lotId: string, scope: ReadScope, q: MessageListQuery): Promise<{ items: Message[]; total: number }> {
  const where = new Where().add('m.lot_id = ?', lotId).scope(scope, 'm.sender', 'm.receiver', 'l.publisher_id');
  if (q.receivers) where.in('m.receiver', q.receivers);
  if (q.sender) where.add('m.sender = ?', q.sender);
  if (q.lotId) where.add('m.lot_id = ?', q.lotId);
  where.senderPlatform(q.platform, 'm.sender');
  if (q.search) where.add(`m.search @@ websearch_to_tsquery('simple', ?)`, q.search);
  const dir = q.sort.desc ? 'desc' : 'asc';
  const from = 'messages m join lots l on l.id = m.lot_id';
  const connection = em.getConnection();
  const rows = await connection.execute<Record<string, unknown>[]>(
    `select ${COLUMNS} from ${from} where ${where.text} order by m.created_at ${dir}, m.id ${dir} limit ? offset ?`,
    [...where.params, q.size, q.page * q.size],
  );
  const [count] = await connection.execute<{ n: string }[]>(`select count(*) as n from ${from} where ${where.text}`, where.params);
  return { items: rows.map((row) => em.map(Message, row)), total: Number(count.n) };
}

/**
 * The dialogs of `accounts`: one row per (account, companion, lot) with a message in either
 * direction, the companion's unread messages to the account counted; latest conversation first.
 */
export async function listDialogs(em: EntityManager, accounts: readonly string[], scope: ReadScope, q: DialogsQuery): Promise<Dialog[]> {
  const ph = placeholders(accounts.length);
  const where = new Where().scope(scope, 'c.account', 'c.companion', 'l.publisher_id');
  if (q.with) where.add('c.companion = ?', q.with);
  if (q.lotId) where.add('c.lot_id = ?', q.lotId);
  const rows = await em.getConnection().execute<{ lot_id: string; account: string; companion: string; unread: string; last_at: Date }[]>(
    `with c as (
       select lot_id, sender as account, receiver as companion, created_at, false as unread from messages where sender in (${ph})
       union all
       select lot_id, receiver, sender, created_at, read_at is null from messages where receiver in (${ph})
     )
     select c.lot_id, c.account, c.companion, count(*) filter (where c.unread) as unread, max(c.created_at) as last_at
       from c join lots l on l.id = c.lot_id
      where ${where.text}
      group by c.lot_id, c.account, c.companion
      order by last_at desc, c.lot_id desc, c.account, c.companion`,
    [...accounts, ...accounts, ...where.params],
  );
  return rows.map((r) => ({ lotId: String(r.lot_id), accountId: r.account, withId: r.companion, unread: Number(r.unread), lastMessageAt: new Date(r.last_at) }));
}

/** How many unread messages match: one statement. */
export async function countUnread(em: EntityManager, receiver: string, scope: ReadScope, q: UnreadQuery): Promise<number> {
  const where = new Where().add('m.read_at is null').add('m.receiver = ?', receiver).scope(scope, 'm.sender', 'm.receiver', 'l.publisher_id');
  if (q.sender) where.add('m.sender = ?', q.sender);
  if (q.lotId) where.add('m.lot_id = ?', q.lotId);
  where.senderPlatform(q.platform, 'm.sender');
  const [row] = await em.getConnection().execute<{ n: string }[]>(`select count(*) as n from messages m join lots l on l.id = m.lot_id where ${where.text}`, where.params);
  return Number(row.n);
}

/** The receiver's unread messages per lot, for a page of lots: one statement. Lots with none are absent. */
export async function unreadPerLot(em: EntityManager, receiver: string, lotIds: readonly string[]): Promise<Map<string, number>> {
  if (!lotIds.length) return new Map();
  const rows = await em.getConnection().execute<{ lot_id: string; n: string }[]>(
    `select lot_id, count(*) as n from messages where receiver = ? and read_at is null and lot_id in (${placeholders(lotIds.length)}) group by lot_id`,
    [receiver, ...lotIds],
  );
  return new Map(rows.map((r) => [String(r.lot_id), Number(r.n)]));
}
