import type { Money } from '../../core/money';
import type { Range } from '../../core/range';
import { AccountType } from '../accounts/accounts.entity';
import type { LotFilter, LotSortKey } from './lots.filter';

const TYPE_CODES: Record<string, number> = { no_auction: 0, eng: 1, partnerA: 2, partnerB: 3 };
const STATE_CODES: Record<string, number> = { pending: 1, sold: 2, finished: 3 };
const ACCOUNT_CODES: Record<string, number> = {
  user: AccountType.User,
  admin: AccountType.Admin,
  broker: AccountType.Broker,
  platform: AccountType.Platform,
};
const WON = [2, 3];
const LOST = [1, 5, 6];

/** A fragment of SQL with its positional parameters. */
export interface Sql {
  text: string;
  params: unknown[];
}

/** The lot's current price in its own currency: its highest bid, else the start (eng) or buy-now price. */
const BASE_PRICE = `coalesce(l.highest_bid, case when l.lot_type = 0 then l.buy_now_price else l.start_price end)`;

/** A price column converted through EUR to the target rate (a parameter), rounded as responses are. */
export const convertedPrice = (column: string) => `round(${column} / rf.units_per_eur * ?::numeric, 2)`;
export const PRICE_EXPR = convertedPrice(BASE_PRICE);
export const BUY_NOW_EXPR = convertedPrice('l.buy_now_price');

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');

export interface ConditionContext {
  callerId: string | null;
  /** units per EUR of the selected currency. */
  targetRate: string;
  now: Date;
}

/** WHERE conditions for a filter; every value travels as a parameter. */
export function lotConditions(f: LotFilter, c: ConditionContext): Sql {
  const parts: string[] = [];
  const params: unknown[] = [];
  const add = (text: string, ...values: unknown[]) => {
    parts.push(text);
    params.push(...values);
  };
  const range = <T extends number | Money>(expr: string, r: Range<T> | undefined, exprParams: unknown[] = []) => {
    if (!r) return;
    const value = (v: T): unknown => (typeof v === 'number' ? v : v.toFixed(2));
    if (r.min !== null) add(`${expr} >= ?`, ...exprParams, value(r.min));
    if (r.max !== null) add(`${expr} <= ?`, ...exprParams, value(r.max));
  };
  const exists = (table: string, extra: string, ...values: unknown[]) =>
    add(`exists (select 1 from ${table} x where x.lot_id = l.id${extra ? ` and ${extra}` : ''})`, ...values);
  const notExists = (table: string, extra: string, ...values: unknown[]) =>
    add(`not exists (select 1 from ${table} x where x.lot_id = l.id${extra ? ` and ${extra}` : ''})`, ...values);
  const flag = (value: boolean | undefined, yes: () => void, no: () => void) => {
    if (value === true) yes();
    else if (value === false) no();
  };

  if (f.country) add('l.country = ?', f.country.toUpperCase());
  if (f.city) add('lower(l.city) = lower(?)', f.city);
  if (f.starsOf) add('exists (select 1 from stars s where s.lot_id = l.id and s.account_id = ?)', f.starsOf);
  if (f.in) add(`l.id in (${placeholders(f.in.length)})`, ...f.in);
  if (f.vin) add(`l.vin in (${placeholders(f.vin.length)})`, ...f.vin.map((v) => v.toUpperCase()));
  if (f.organizerType) add('exists (select 1 from accounts a where a.id = l.organizer_id and a.account_type = ?)', ACCOUNT_CODES[f.organizerType]);
  if (f.lotType) add(`l.lot_type in (${placeholders(f.lotType.length)})`, ...f.lotType.map((t) => TYPE_CODES[t]));
  if (f.lotState) add(`l.lot_state in (${placeholders(f.lotState.length)})`, ...f.lotState.map((s) => STATE_CODES[s]));
  if (f.participant) exists('participants', 'x.account_id = ?', f.participant);
  if (f.winner) add('l.winner_id = ?', f.winner);
  if (f.notWinner) add('l.winner_id is distinct from ?', f.notWinner);
  if (f.wheel) add('l.wheel = ?', f.wheel);
  range('l.year', f.year);
  range('l.engine_volume', f.engineVolume);
  range(PRICE_EXPR, f.price, [c.targetRate]);
  if (f.transmission) add('upper(l.transmission) = upper(?)', f.transmission);
  if (f.fuel) add(`l.fuel_type in (${placeholders(f.fuel.length)})`, ...f.fuel);
  if (f.maker) add('lower(l.maker) = lower(?)', f.maker);
  if (f.model) add('lower(l.model) = lower(?)', f.model);
  if (f.modelPrefix) add(`lower(l.model) like ? escape '\\'`, `${f.modelPrefix.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
  if (f.startTime !== undefined) add('l.start_time >= to_timestamp(?)', f.startTime);
  if (f.trimPartnerA !== undefined) add('not (l.lot_type = 2 and l.start_time < ?)', new Date(c.now.getTime() + f.trimPartnerA * 1000));
  if (f.trimPartnerB !== undefined) add('not (l.lot_type = 3 and l.start_time < ?)', new Date(c.now.getTime() + f.trimPartnerB * 1000));
  range('extract(epoch from l.start_time)', f.timePeriod);
  if (f.yardNumber !== undefined) add('l.yard_number = ?', f.yardNumber);
  if (f.partnerAStatus) add(`l.sale_status in (${placeholders(f.partnerAStatus.length)})`, ...f.partnerAStatus);
  if (f.registered !== undefined) add('l.registered = ?', f.registered);
  flag(f.deposit, () => add('l.deposit > 0'), () => add('l.deposit = 0'));
  flag(f.hasWinner, () => add('l.winner_id is not null'), () => add('l.winner_id is null'));
  flag(f.hasCallbacks, () => exists('callbacks', ''), () => notExists('callbacks', ''));
  flag(f.hasRequests, () => exists('participants', '(x.state = 4 or (x.state = 0 and x.requested_buy_now))'), () => notExists('participants', '(x.state = 4 or (x.state = 0 and x.requested_buy_now))'));
  flag(f.hasParticipants, () => exists('participants', ''), () => notExists('participants', ''));
  if (f.hasParticipantsFrom) {
    exists('participants', `exists (select 1 from accounts a where a.id = x.account_id and a.platform_id in (${placeholders(f.hasParticipantsFrom.length)}))`, ...f.hasParticipantsFrom);
  }
  flag(f.isFinished, () => add('(l.lot_state <> 1 or l.end_time <= ?)', c.now), () => add('(l.lot_state = 1 and l.end_time > ?)', c.now));
  flag(f.buyNow, () => add('l.buy_now_price > 0'), () => add('l.buy_now_price = 0'));
  if (f.search) add(`l.search @@ websearch_to_tsquery('simple', ?)`, f.search);
  if (f.publisher) add(`l.publisher_id in (${placeholders(f.publisher.length)})`, ...f.publisher);
  if (f.directSalePublisher) add(`(l.lot_type <> 0 or l.publisher_id in (${placeholders(f.directSalePublisher.length)}))`, ...f.directSalePublisher);
  if (f.organizer) add('l.organizer_id = ?', f.organizer);
  if (f.winnerAccountType) add('exists (select 1 from accounts a where a.id = l.winner_id and a.account_type = ?)', ACCOUNT_CODES[f.winnerAccountType]);
  flag(f.invoiceSent, () => exists('winner_details', 'x.invoice_id is not null'), () => notExists('winner_details', 'x.invoice_id is not null'));
  flag(f.invoicePaid, () => exists('winner_details', 'x.invoice_paid'), () => notExists('winner_details', 'x.invoice_paid'));
  if (f.tab) exists('participants', `x.account_id = ? and x.state in (${(f.tab === 'won' ? WON : LOST).join(', ')})`, c.callerId);

  return { text: parts.length ? parts.join(' and ') : 'true', params };
}

/** The SQL expression each sort key orders by, and whether it needs the target rate. */
export function sortExpression(key: LotSortKey): { expr: string; rated: boolean } {
  switch (key) {
    case 'start_time':
      return { expr: 'l.start_time', rated: false };
    case 'time_left':
      return { expr: 'l.end_time', rated: false };
    case 'price':
      return { expr: PRICE_EXPR, rated: true };
    case 'buy_now_price':
      return { expr: BUY_NOW_EXPR, rated: true };
    case 'created_at':
      return { expr: 'l.created_at', rated: false };
    case 'updated_at':
      return { expr: 'l.updated_at', rated: false };
  }
}
