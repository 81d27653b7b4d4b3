import type { EntityManager } from '@mikro-orm/postgresql';
import type { RequestContext } from '../../core/context';
import { conflict, forbidden, invalid, notFound } from '../../core/errors';
import { integerId } from '../../core/ids';
import type { ListWindow, WindowPage } from '../../core/list-window';
import { windowOf } from '../../db/window';
import { listBound } from '../../core/page';
import { requireCaller } from '../../core/policies';
import { inTransaction, type TransactionScope } from '../../core/transaction';
import { validateInput, type Untrusted } from '../../core/validate';
import { countOf, preparedRowsOf, rowsOf } from '../../db/query';
import { sql, type Sql } from '../../db/sql';
import { DEFAULT_PRICE_CURRENCY } from '../lots';
import { NotificationType, type BatchRow, type NotificationsService } from '../notifications';
import type { Outbox } from '../outbox';
import { dueForEmail, matchingSearches, priceFalls, pruneAlerts, recordAlerts, type DueSearch, type MatchReason } from './searches.sql';
import { SAVED_FILTERS, savedSearchInput, savedSearchRef, type SavedFilter, type SavedSearchInput, type SavedSearchRef } from './searches.input';

export interface SavedSearch {
  id: string;
  accountId: string;
  filter: Record<string, unknown>;
  currency: string;
  createdAt: Date;
}

const TYPE_CODES: Record<string, number> = { no_auction: 0, eng: 1, partnerA: 2, partnerB: 3 };
const money = (m: { toFixed(n: number): string } | null | undefined) => (m ? m.toFixed(2) : null);

/**
 * Saved lot searches with alerts (docs/saved-searches.md): an account keeps filters of GET /lots;
 * each lot made afterwards is matched against all of them by one statement, which notifies the
 * accounts of the searches it matches, each search about each lot at most once a day per reason.
 */
export class SearchesService {
  constructor(
    private readonly notifications: NotificationsService,
    private readonly mail: Outbox,
    /** The most searches one account keeps (SAVED_SEARCHES_PER_ACCOUNT). */
    private readonly perAccount: number,
  ) {}

  /**
   * POST /accounts/{id}/saved_searches: the account itself, up to its limit. Its filter is stored
   * as the lot filter checked it (domain names, canonical values), the form rows always had.
   */
  async create(ctx: RequestContext, input: Untrusted<SavedSearchInput>): Promise<SavedSearch> {
    requireCaller(ctx);
    const { accountId, filter } = validateInput(savedSearchInput, input);
    this.requireSelf(ctx, accountId);
    for (const name of Object.keys(filter)) {
      if (!(SAVED_FILTERS as readonly string[]).includes(name)) {
        throw invalid('saved_search_filter_unsupported', `filter.${name} is not a filter a saved search can hold (docs/saved-searches.md)`, { field: `filter.${name}` });
      }
    }
    return inTransaction(ctx, (em) => this.insert(em, accountId, filter as SavedFilter));
  }

  /** Two saves of one account at once are counted one after the other (a lock per account, this transaction long). */
  private async insert(em: EntityManager, accountId: string, f: SavedFilter): Promise<SavedSearch> {
    await rowsOf(em, sql`select pg_advisory_xact_lock(hashtextextended(${`saved-searches:${accountId}`}, 0))`);
    const n = await countOf(em, sql`saved_searches where account_id = ${accountId}`);
    if (n >= this.perAccount) throw conflict('saved_search_limit', `the account keeps ${n} saved searches, the most allowed (${this.perAccount}); delete one first`);
    const currency = f.currency ?? DEFAULT_PRICE_CURRENCY;
    const [row] = await rowsOf<SavedSearchRow>(
      em,
      sql`insert into saved_searches (account_id, filters, currency, country, city, maker, model, model_prefix, lot_types, fuels, year_min, year_max, price_min, price_max, buy_now)
          values (${accountId}, ${JSON.stringify(f)}::jsonb, ${currency}, ${f.country?.toUpperCase() ?? null}, ${f.city ?? null}, ${f.maker ?? null},
                  ${f.model ?? null}, ${f.modelPrefix ?? null}, ${f.lotType ? sql.array(f.lotType.map((t) => TYPE_CODES[t]), 'smallint') : null},
                  ${f.fuel ? sql.array(f.fuel, 'text') : null}, ${f.year?.min ?? null}, ${f.year?.max ?? null}, ${money(f.price?.min)}, ${money(f.price?.max)}, ${f.buyNow ?? null})
          returning ${SAVED_SEARCH_COLUMNS}`,
    );
    return savedSearchOf(row);
  }

  /** GET /accounts/{id}/saved_searches: the account itself. */
  async list(ctx: RequestContext, input: Untrusted<{ accountId: string }>, limit?: number): Promise<SavedSearch[]> {
    requireCaller(ctx);
    const { accountId } = validateInput(savedSearchInput.pick({ accountId: true }), input);
    // The first `limit` (GraphQL bounds it: SAVED_SEARCHES_PER_ACCOUNT may be up to 10,000); REST
    // asks for no bound and lists them all (LIMIT NULL is no limit).
    const bound = limit === undefined ? null : listBound(limit, 'limit');
    this.requireSelf(ctx, accountId);
    const rows = await rowsOf<SavedSearchRow>(
      ctx.em,
      sql`select ${SAVED_SEARCH_COLUMNS} from saved_searches where account_id = ${accountId} order by id limit ${bound}`,
    );
    return rows.map(savedSearchOf);
  }

  /**
   * One saved search of the caller's own (`node(id:)`): another account's is answered as an id of
   * no search, so that a search hidden from the caller cannot be told from a missing one.
   */
  async ownById(ctx: RequestContext, id: string): Promise<SavedSearch> {
    const caller = requireCaller(ctx);
    const searchId = integerId(id);
    const rows = searchId === null ? [] : await rowsOf<SavedSearchRow>(
      ctx.em,
      sql`select ${SAVED_SEARCH_COLUMNS} from saved_searches where id = ${searchId} and account_id = ${caller.accountId}`,
    );
    if (!rows.length) throw notFound('saved_search_not_found', 'the account has no saved search with this id', { field: 'id' });
    return savedSearchOf(rows[0]);
  }

  /** A window of the caller's saved searches, newest first, paged in the database (`Viewer.savedSearches`). */
  async window(ctx: RequestContext, window: ListWindow): Promise<WindowPage<SavedSearch>> {
    const caller = requireCaller(ctx);
    listBound(window.size, window.fromEnd ? 'last' : 'first');
    const page = await windowOf<SavedSearchRow>(
      ctx.em,
      {
        columns: sql`s.id::text as id, s.account_id, s.filters, s.currency, s.created_at`,
        from: sql`saved_searches s`,
        where: sql`s.account_id = ${caller.accountId}`,
        order: { key: sql`s.created_at`, id: sql`s.id` },
      },
      window,
    );
    return { ...page, items: page.items.map(savedSearchOf) };
  }

  /** DELETE /accounts/{id}/saved_searches/{search-id}: the account itself. */
  async delete(ctx: RequestContext, input: Untrusted<SavedSearchRef>): Promise<void> {
    requireCaller(ctx);
    const { accountId, id } = validateInput(savedSearchRef, input);
    this.requireSelf(ctx, accountId);
    const gone = await rowsOf(ctx.em, sql`delete from saved_searches where id = ${id} and account_id = ${accountId} returning id`);
    if (!gone.length) throw notFound('saved_search_not_found', 'the account has no saved search with this id', { field: 'id' });
  }

  /**
   * Notifies the accounts whose saved searches a new lot matches: one statement, inside the
   * transaction that made the lot; announced once it commits.
   */
  matchNewLot(em: EntityManager, scope: TransactionScope, lotId: string): Promise<number> {
    return this.alert(em, scope, matchingSearches(lotId), 'new_lot');
  }

  /**
   * Notifies the accounts of the saved searches whose price max the open lots newly fall under
   * since the rates of `changed` (currency → its rate before) moved: one statement, inside the
   * transaction that wrote the rates; announced once it commits.
   */
  async matchPriceFalls(em: EntityManager, scope: TransactionScope, changed: ReadonlyMap<string, string>): Promise<number> {
    if (!changed.size) return 0;
    // The planner prices the range scans as if each met hundreds of searches and compiles the
    // statement (JIT), which costs more than running it: off for the rest of this transaction.
    await rowsOf(em, sql`select set_config('jit', 'off', true)`);
    return this.alert(em, scope, priceFalls(changed), 'price_fell');
  }

  /** The cleaner's: forgets the alerts older than a day, which no longer hold back another. Answers how many. */
  async pruneAlerts(em: EntityManager): Promise<number> {
    return (await rowsOf(em, pruneAlerts)).length;
  }

  /**
   * Inserts a notification per matching (search, lot) row of `matches`, then picks the matched
   * searches due an email (at most one a day each): those go through the outbox, one email per
   * search naming its lots. Answers how many notifications were made. Only a price fall is
   * recorded to keep its search quiet for a day: it may recur, a lot is new once.
   */
  private async alert(em: EntityManager, scope: TransactionScope, matches: Sql, reason: MatchReason): Promise<number> {
    // A new lot's match, the same text at every lot, took longer to plan than to run: named, a
    // connection plans it at its first runs only. A price fall's text follows the currencies
    // changed, and its best plan their rates: planned afresh.
    const insert = this.notifications.insertRows(NotificationType.SavedSearchMatched, matches);
    const rows = reason === 'new_lot' ? await preparedRowsOf<BatchRow>(em, insert) : await rowsOf<BatchRow>(em, insert);
    const published = this.notifications.publishedBatch(rows);
    scope.afterCommit(() => this.notifications.announce(published));
    if (!rows.length) return 0;
    if (reason === 'price_fell') await rowsOf(em, recordAlerts(rows.map((r) => r.meta)));
    const lotsBySearch = new Map<string, string[]>();
    for (const { meta } of rows) {
      const lots = lotsBySearch.get(meta.search_id);
      if (lots) lots.push(meta.lot_id);
      else lotsBySearch.set(meta.search_id, [meta.lot_id]);
    }
    const due = await preparedRowsOf<DueSearch>(em, dueForEmail([...lotsBySearch.keys()]));
    for (const d of due) {
      await this.mail.send(em, { channel: 'email', recipient: d.email, accountId: d.account_id, platformId: d.platform_id, ...emailOf(d.id, lotsBySearch.get(d.id) as string[], reason) });
    }
    if (due.length) await em.flush();
    return rows.length;
  }

  private requireSelf(ctx: RequestContext, accountId: string): void {
    const caller = requireCaller(ctx);
    if (caller.accountId !== accountId) throw forbidden('saved_search_forbidden', 'only the account itself manages its saved searches');
  }
}

/** A `saved_searches` row as a statement selecting `SAVED_SEARCH_COLUMNS` answers it. */
interface SavedSearchRow {
  id: string;
  account_id: string;
  filters: Record<string, unknown>;
  currency: string;
  created_at: string | Date;
}

const SAVED_SEARCH_COLUMNS = sql`id::text, account_id, filters, currency, created_at`;

function savedSearchOf(r: SavedSearchRow): SavedSearch {
  return { id: r.id, accountId: r.account_id, filter: r.filters, currency: r.currency, createdAt: new Date(r.created_at) };
}

/** The daily email of a search: the lots that matched it now; further matches today are in the notifications only. */
function emailOf(searchId: string, lots: readonly string[], reason: MatchReason): { subject: string; body: string } {
  const later = 'Further matches of this search today are in your notifications only.';
  return reason === 'new_lot'
    ? { subject: 'A new lot matches your saved search', body: `Lot ${lots.join(', ')} matches your saved search ${searchId}. ${later}` }
    : { subject: 'A lot fell under the price of your saved search', body: `The price of lot ${lots.join(', ')} fell under the price of your saved search ${searchId}. ${later}` };
}
