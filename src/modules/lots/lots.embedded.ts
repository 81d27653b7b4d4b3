import type { EntityManager } from '@mikro-orm/postgresql';
import { Money } from '../../core/money';
import { MAX_PAGE_SIZE } from '../../core/page';
import { timestamp, type Rows } from '../../db/raw';
import { sql, type Sql } from '../../db/sql';
import { type Account, accountArrayById, accountOfArray } from '../accounts';

/** A bid of the `bids` table as the page statement reads it beside its lot (bids' own `Bid` has this shape). */
export interface EmbeddedBid {
  id: string;
  lotId: string;
  participantId: string;
  accountId: string;
  amount: Money;
  placedByProxy: boolean;
  createdAt: Date;
}

/** A callback request of the `callbacks` table as the page statement reads it beside its lot (watchlist's `Callback` has this shape). */
export interface EmbeddedCallback {
  id: string;
  lotId: string;
  accountId: string;
  createdAt: Date;
}

/** The relations a page of lots may read in its own statement, as the callers name them. */
export const EMBEDDABLE = ['organizer', 'platform', 'bids', 'callbacks'] as const;
export type Embeddable = (typeof EMBEDDABLE)[number];

/** The embeddable relations among those a caller asks for (REST's include, GraphQL's fields of a lot). */
export const embeddableOf = (asked: ReadonlySet<string>): ReadonlySet<Embeddable> => new Set(EMBEDDABLE.filter((r) => asked.has(r)));

/** What a page's statement is to read for its relations: the callbacks, which every page names, and the embeddable relations asked for. */
export const embeddedFor = (relations: ReadonlySet<string>): ReadonlySet<Embeddable> => embeddableOf(new Set<string>([...relations, 'callbacks']));

/**
 * What a page's own statement read beside its lots, in the state that statement saw, as stored
 * (before the visibility rules): the bids and callbacks of every lot on the page, by lot id, and the accounts.
 * Null where it was not asked for.
 */
export interface Embedded {
  bids: ReadonlyMap<string, EmbeddedBid[]> | null;
  callbacks: ReadonlyMap<string, EmbeddedCallback[]> | null;
  accounts: ReadonlyMap<string, Account>;
}

/**
 * The bids a lot shows beside it (REST `include=bids`, GraphQL `Lot.bids`): its newest, as many as
 * a page holds. A hot lot's history runs to tens of thousands of bids, and a page of 100 such lots
 * would read them all for each request. The whole history: `Lot.bidsConnection` (paged) and the
 * lot's bid log.
 */
export const BIDS_BESIDE_LOT = MAX_PAGE_SIZE;

const BIDS = sql`(select json_agg(json_build_array(b.id::text, b.participant_id::text, b.account_id, b.amount::text, b.placed_by_proxy, b.created_at) order by b.id)
  from (select * from bids b where b.lot_id = l.id order by b.id desc limit ${BIDS_BESIDE_LOT}) b) as embedded_bids`;

const CALLBACKS = sql`(select json_agg(json_build_array(c.id::text, c.account_id, c.created_at) order by c.id) from callbacks c where c.lot_id = l.id) as embedded_callbacks`;

/**
 * The page statement's columns for `embed`: a subquery per lot and relation, which PostgreSQL runs
 * for the page's rows only (after its limit). One round trip then reads what the page shows, where
 * the relations' own statements took a second one after the page (as PostGraphile does).
 */
export function embeddedColumns(em: EntityManager, embed: ReadonlySet<Embeddable>): Sql {
  let columns = sql``;
  if (embed.has('organizer')) columns = sql`${columns}, ${accountArrayById(em, sql`l.organizer_id`)} as embedded_organizer`;
  if (embed.has('platform')) columns = sql`${columns}, ${accountArrayById(em, sql`l.publisher_id`)} as embedded_platform`;
  if (embed.has('bids')) columns = sql`${columns}, ${BIDS}`;
  if (embed.has('callbacks')) columns = sql`${columns}, ${CALLBACKS}`;
  return columns;
}

type BidArray = [string, string, string, string, boolean, string];
type CallbackArray = [string, string, string];

export function embeddedOfRows(em: EntityManager, rows: Rows, embed: ReadonlySet<Embeddable>): Embedded {
  const accounts = new Map<string, Account>();
  const keep = (values: unknown) => {
    if (values === null) return;
    const account = accountOfArray(em, values as unknown[]);
    if (!accounts.has(account.id)) accounts.set(account.id, account);
  };
  const bids = embed.has('bids') ? new Map<string, EmbeddedBid[]>() : null;
  const callbacks = embed.has('callbacks') ? new Map<string, EmbeddedCallback[]>() : null;
  for (const r of rows) {
    if (embed.has('organizer')) keep(r.embedded_organizer);
    if (embed.has('platform')) keep(r.embedded_platform);
    const lotId = r.id as string;
    bids?.set(
      lotId,
      ((r.embedded_bids as BidArray[] | null) ?? []).map(([id, participantId, accountId, amount, placedByProxy, createdAt]) => ({
        id,
        lotId,
        participantId,
        accountId,
        amount: new Money(amount),
        placedByProxy,
        createdAt: timestamp(createdAt) as Date,
      })),
    );
    callbacks?.set(
      lotId,
      ((r.embedded_callbacks as CallbackArray[] | null) ?? []).map(([id, accountId, createdAt]) => ({ id, lotId, accountId, createdAt: timestamp(createdAt) as Date })),
    );
  }
  return { bids, callbacks, accounts };
}
