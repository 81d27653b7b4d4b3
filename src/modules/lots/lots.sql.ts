import Decimal from 'decimal.js';
import type { Money } from '../../core/money';
import type { Range } from '../../core/range';
import type { SortKind } from '../../db/keyset';
import type { Caller } from '../../core/context';
import { seesParticipantSql, seesWinnerDetailsSql } from '../../core/policies';
import { sql, type Sql } from '../../db/sql';
import { AccountType } from '../../core/account-type';
import type { LotFilter, LotSortKey } from './lots.filter';
import { openSql, overSql } from './lots.open';

const TYPE_CODES: Record<string, number> = { no_auction: 0, eng: 1, partnerA: 2, partnerB: 3 };
const STATE_CODES: Record<string, number> = { pending: 1, sold: 2, finished: 3 };
const ACCOUNT_CODES: Record<string, number> = {
  user: AccountType.User,
  admin: AccountType.Admin,
  broker: AccountType.Broker,
  platform: AccountType.Platform,
};

/** Quotients to this many significant digits, rounded up (see priceRange). */
const Bound = Decimal.clone({ precision: 100, rounding: Decimal.ROUND_CEIL });
const HALF_CENT = new Bound('0.005');

/**
 * filter[price]: the lot's price converted to the target rate (units per EUR) and rounded to the
 * cent as responses show it, round(price_eur * rate, 2), in the range; its price in EUR is stored
 * (Migration20261124100000LotSortKeys). Stated as bounds on price_eur itself, which the planner
 * estimates from the column's statistics (the rounded product it guessed at 0.5% of the lots
 * whatever the range, and chose its plans by that) and an index holding price_eur tests: since a
 * product is exact and round() rounds half away from zero, round(x * rate, 2) >= min exactly when
 * x >= (min - 0.005) / rate, and <= max exactly when x < (max + 0.005) / rate. The quotients are
 * rounded up at 100 significant digits, which keeps them exact for the comparison: a stored
 * price_eur has at most 40 decimals (a division keeps 16 significant digits, and the smallest
 * quotient is 0.01 over a rate below 10^18), and no such value lies between a quotient and its
 * rounding.
 */
function priceRange(r: Range<Money>, c: ConditionContext, add: (condition: Sql) => void): void {
  if (c.targetRate === undefined) throw new Error('filter[price] needs the target rate');
  const rate = new Bound(c.targetRate);
  const inEur = (price: Money) => Bound.div(price, rate).toFixed();
  if (r.min !== null) add(sql`l.price_eur >= ${inEur(new Bound(r.min).minus(HALF_CENT))}::numeric`);
  if (r.max !== null) add(sql`l.price_eur < ${inEur(new Bound(r.max).plus(HALF_CENT))}::numeric`);
}

/** A LIKE pattern of what starts with `prefix`, its wildcards escaped with a backslash. */
const startsWith = (prefix: string) => `${prefix.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

/**
 * The stored `participants.state` codes the filters read, as trading's `ParticipantState` names
 * them (lots stands below trading, so it cannot import it; test/lots/participant-states.test.ts
 * holds the two equal): won, lost; a request is pending (0) asking to buy now, or deposit pending (4).
 */
export const PARTICIPANT_STATES = { won: [2, 3], lost: [1, 5, 6], pending: 0, depositPending: 4 } as const;
const WON = PARTICIPANT_STATES.won;
const LOST = PARTICIPANT_STATES.lost;
const HAS_REQUEST = sql`(x.state = 4 or (x.state = 0 and x.requested_buy_now))`;

export interface ConditionContext {
  caller: Caller | null;
  /** Units per EUR of the selected currency: needed by filter[price] only. */
  targetRate?: string;
  now: Date;
}

/**
 * WHERE conditions for a filter; every value travels as a parameter. `planPerValues`: some
 * condition's selectivity is a fixed guess without its value (a range, a pattern, a text search),
 * so a generic plan of the statement may read the lots the wrong way (db/raw.ts, `customPlan`).
 */
export function lotConditions(f: LotFilter, c: ConditionContext): { where: Sql; planPerValues: boolean } {
  const parts: Sql[] = [];
  let planPerValues = false;
  const add = (condition: Sql) => parts.push(condition);
  const guessed = (condition: Sql) => {
    planPerValues = true;
    add(condition);
  };
  const range = <T extends number | Money>(expr: Sql, r: Range<T> | undefined) => {
    if (!r) return;
    const value = (v: T): unknown => (typeof v === 'number' ? v : v.toFixed(2));
    if (r.min !== null) guessed(sql`${expr} >= ${value(r.min)}`);
    if (r.max !== null) guessed(sql`${expr} <= ${value(r.max)}`);
  };
  const related = (table: Sql, extra: Sql = sql`true`) => sql`exists (select 1 from ${table} x where x.lot_id = l.id and ${extra})`;
  const flag = (value: boolean | undefined, yes: Sql) => {
    if (value === true) add(yes);
    else if (value === false) add(sql`not ${yes}`);
  };

  if (f.country) add(sql`l.country = ${f.country.toUpperCase()}`);
  if (f.city) add(sql`lower(l.city) = lower(${f.city})`);
  if (f.starsOf) add(sql`exists (select 1 from stars s where s.lot_id = l.id and s.account_id = ${f.starsOf})`);
  if (f.in) add(sql`l.id in (${sql.list(f.in)})`);
  if (f.vin) add(sql`l.vin in (${sql.list(f.vin.map((v) => v.toUpperCase()))})`);
  if (f.organizerType) add(sql`exists (select 1 from accounts a where a.id = l.organizer_id and a.account_type = ${ACCOUNT_CODES[f.organizerType]})`);
  if (f.lotType) add(sql`l.lot_type in (${sql.list(f.lotType.map((t) => TYPE_CODES[t]))})`);
  if (f.lotState) add(sql`l.lot_state in (${sql.list(f.lotState.map((s) => STATE_CODES[s]))})`);
  if (f.participant) add(related(sql`participants`, sql`x.account_id = ${f.participant}`));
  if (f.winner) add(sql`l.winner_id = ${f.winner}`);
  if (f.notWinner) add(sql`l.winner_id is distinct from ${f.notWinner}`);
  if (f.wheel) add(sql`l.wheel = ${f.wheel}`);
  range(sql`l.year`, f.year);
  range(sql`l.engine_volume`, f.engineVolume);
  if (f.price) priceRange(f.price, c, guessed);
  if (f.transmission) add(sql`upper(l.transmission) = upper(${f.transmission})`);
  if (f.fuel) add(sql`l.fuel_type in (${sql.list(f.fuel)})`);
  if (f.maker) add(sql`lower(l.maker) = lower(${f.maker})`);
  if (f.model) add(sql`lower(l.model) = lower(${f.model})`);
  if (f.modelPrefix) guessed(sql`lower(l.model) like ${startsWith(f.modelPrefix.toLowerCase())} escape '\\'`);
  if (f.startTime !== undefined) guessed(sql`l.start_time >= to_timestamp(${f.startTime})`);
  if (f.trimPartnerA !== undefined) guessed(sql`not (l.lot_type = 2 and l.start_time < ${new Date(c.now.getTime() + f.trimPartnerA * 1000)})`);
  if (f.trimPartnerB !== undefined) guessed(sql`not (l.lot_type = 3 and l.start_time < ${new Date(c.now.getTime() + f.trimPartnerB * 1000)})`);
  range(sql`extract(epoch from l.start_time)`, f.timePeriod);
  if (f.yardNumber !== undefined) add(sql`l.yard_number = ${f.yardNumber}`);
  if (f.partnerAStatus) add(sql`l.sale_status in (${sql.list(f.partnerAStatus)})`);
  if (f.registered !== undefined) add(sql`l.registered = ${f.registered}`);
  if (f.deposit !== undefined) add(f.deposit ? sql`l.deposit > 0` : sql`l.deposit = 0`);
  if (f.hasWinner !== undefined) add(f.hasWinner ? sql`l.winner_id is not null` : sql`l.winner_id is null`);
  flag(f.hasCallbacks, related(sql`callbacks`));
  // Who takes part in a lot is its managers' business, each participant's own and its platform's: the filters see the participants the caller may see.
  const participant = seesParticipantSql(c.caller, sql`l`, sql`x.account_id`);
  flag(f.hasRequests, related(sql`participants`, sql`${HAS_REQUEST} and ${participant}`));
  flag(f.hasParticipants, related(sql`participants`, participant));
  if (f.hasParticipantsFrom) {
    add(related(sql`participants`, sql`${participant} and exists (select 1 from accounts a where a.id = x.account_id and a.platform_id in (${sql.list(f.hasParticipantsFrom)}))`));
  }
  if (f.isFinished !== undefined) guessed(f.isFinished ? overSql(c.now) : openSql(c.now));
  if (f.buyNow !== undefined) add(f.buyNow ? sql`l.buy_now_price > 0` : sql`l.buy_now_price = 0`);
  if (f.search) guessed(sql`l.search @@ websearch_to_tsquery('simple', ${f.search})`);
  if (f.publisher) add(sql`l.publisher_id in (${sql.list(f.publisher)})`);
  if (f.directSalePublisher) add(sql`(l.lot_type <> 0 or l.publisher_id in (${sql.list(f.directSalePublisher)}))`);
  if (f.organizer) add(sql`l.organizer_id = ${f.organizer}`);
  if (f.winnerAccountType) add(sql`exists (select 1 from accounts a where a.id = l.winner_id and a.account_type = ${ACCOUNT_CODES[f.winnerAccountType]})`);
  // A deal's invoice is its parties' business: the filters see the winner details the caller may see.
  const details = seesWinnerDetailsSql(c.caller, sql`l`);
  flag(f.invoiceSent, related(sql`winner_details`, sql`x.invoice_id is not null and ${details}`));
  flag(f.invoicePaid, related(sql`winner_details`, sql`x.invoice_paid and ${details}`));
  if (f.tab) add(related(sql`participants`, sql`x.account_id = ${c.caller?.accountId ?? null} and x.state in (${sql.list(f.tab === 'won' ? WON : LOST)})`));

  return { where: sql.and(parts), planPerValues };
}

/**
 * The SQL expression each sort key orders by, and how its cursor carries it. Prices order by
 * their stored value in EUR, which every target rate orders alike, so that an index serves them.
 */
export function sortExpression(key: LotSortKey): { expr: Sql; kind: SortKind } {
  switch (key) {
    case 'start_time':
      return { expr: sql`l.start_time`, kind: 'timestamp' };
    case 'time_left':
      return { expr: sql`l.end_time`, kind: 'timestamp' };
    case 'price':
      return { expr: sql`l.price_eur`, kind: 'numeric' };
    case 'buy_now_price':
      return { expr: sql`l.buy_now_price_eur`, kind: 'numeric' };
    case 'created_at':
      return { expr: sql`l.created_at`, kind: 'timestamp' };
    case 'updated_at':
      return { expr: sql`l.updated_at`, kind: 'timestamp' };
  }
}
