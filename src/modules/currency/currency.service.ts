import type { EntityManager } from '@mikro-orm/postgresql';
import Decimal from 'decimal.js';
import type { RequestContext } from '../../core/context';
import { DomainError, forbidden, invalid, type ErrorItem } from '../../core/errors';
import { asMoney, formatMoney, Money, parseMoney, CURRENCIES } from '../../core/money';
import { requireCaller } from '../../core/policies';
import { AccountType } from '../../core/account-type';
import { rowsOf } from '../../db/query';
import { sql } from '../../db/sql';
import { inTransaction, type TransactionScope } from '../../core/transaction';
import { CurrencyRate } from './currency.entity';
import { BASE_CURRENCY, isCurrency, MAX_BULK_ITEMS, parseRateInput, type Currency } from './currency.input';
import type { RatesDocument } from './currency.source';
import { ratesBefore, repriceLots } from './currency.sql';

/** Whoever watches for prices that fell when rates moved (the saved searches): told the moved rates, by currency, before the rates' transaction commits. */
export interface PriceFallWatch {
  matchPriceFalls(em: EntityManager, scope: TransactionScope, changed: ReadonlyMap<string, string>): Promise<unknown>;
}

export type Converter = (amount: Decimal.Value, from: string, to: string) => Money;

/**
 * An amount as a page shows it in `to`: converted, to two decimals. In its own currency it is only
 * formatted, which rounds it alike, without the converted copy that most of a page's prices made.
 */
export const shownPrice = (convert: Converter, amount: Money, from: string, to: string): string => formatMoney(from === to ? amount : convert(amount, from, to));

/** Converts through EUR with the stored rates; results are rounded half-up to two decimals. */
export function converterOf(rates: Map<string, Decimal>): Converter {
  return (amount, from, to) => {
    const value = asMoney(amount);
    if (from === to) return value.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
    const fromRate = rates.get(from);
    const toRate = rates.get(to);
    if (!fromRate || !toRate) throw new Error(`no rate for ${fromRate ? to : from}`);
    return value.div(fromRate).mul(toRate).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  };
}

/** One conversion: what was asked and its result, rounded half-up to two decimals. */
export interface Conversion {
  from: Currency;
  to: Currency;
  amount: Money;
  result: Money;
}

/** A stable id of a conversion: the same question always names the same resource. */
export const conversionId = (c: Pick<Conversion, 'from' | 'to' | 'amount'>): string => `${c.from}-${c.to}-${formatMoney(c.amount)}`;

/** One conversion as asked: each field is checked by the service, so that every fault is reported. */
export interface ConvertInput {
  from?: unknown;
  to?: unknown;
  amount?: unknown;
}

/** Up to 100 conversions, answered in the order given; each item is a ConvertInput. */
export interface ConvertManyInput {
  items?: unknown;
}

export interface RateInput {
  currency?: unknown;
  unitsPerEur?: unknown;
}

/** What `pg_try_advisory_xact_lock` answers, named `locked`. */
interface TryLocked {
  locked: boolean;
}

interface RateRow {
  currency: string;
  units_per_eur: string;
}

/** The rates before of the currencies whose written rate differs from it (a currency new to the table had none). */
function movedRates(before: readonly RateRow[], written: ReadonlyMap<string, Decimal>): Map<string, string> {
  return new Map(before.filter((r) => written.has(r.currency) && !(written.get(r.currency) as Decimal).eq(r.units_per_eur)).map((r) => [r.currency, r.units_per_eur]));
}

/** Transaction-scoped advisory lock taken by the refresh from the rates source (any instance). */
const RATES_REFRESH_LOCK = 0x63757272; // "curr"

interface Fault {
  field: keyof ConvertInput;
  missing: boolean;
  detail: string;
}

function checkConversion(input: ConvertInput): { ok: { from: Currency; to: Currency; amount: Money } } | { faults: Fault[] } {
  const faults: Fault[] = [];
  const currency = (field: 'from' | 'to') => {
    const value = input[field];
    if (value === undefined || value === null) faults.push({ field, missing: true, detail: `${field} is required` });
    else if (!isCurrency(value)) faults.push({ field, missing: false, detail: `${field} must be one of ${CURRENCIES.join(', ')}` });
    return value as Currency;
  };
  const from = currency('from');
  const to = currency('to');
  const amount = input.amount === undefined || input.amount === null ? undefined : parseMoney(input.amount);
  if (input.amount === undefined || input.amount === null) faults.push({ field: 'amount', missing: true, detail: 'amount is required' });
  else if (!amount) faults.push({ field: 'amount', missing: false, detail: 'amount must be a non-negative decimal with at most two decimals (as a JSON number, at most 15 digits: send larger amounts as strings)' });
  return faults.length ? { faults } : { ok: { from, to, amount: amount as Money } };
}

/**
 * Currency rates and conversion: rates are units per 1 EUR,
 * conversions go through EUR and round half-up to two decimals. Rates change by the master
 * account (`setRate`) and by the configured rates source (`applyRates`, see currency.poller.ts).
 */
export class CurrencyService {
  constructor(private readonly searches: PriceFallWatch) {}

  async rates(em: EntityManager): Promise<Map<string, Decimal>> {
    const rows = await em.find(CurrencyRate, {});
    return new Map(rows.map((r) => [r.currency, new Money(r.unitsPerEur)]));
  }

  async converter(em: EntityManager): Promise<Converter> {
    return converterOf(await this.rates(em));
  }

  /** GET /convert (public): one amount; each faulty field is one error. */
  convert(ctx: RequestContext, input: ConvertInput): Promise<Conversion> {
    return this.convertWith(input, () => this.converter(ctx.em));
  }

  /** `convert`, through a converter the caller shares between conversions (one read of the rates for a request's many). */
  async convertWith(input: ConvertInput, converter: () => Promise<Converter>): Promise<Conversion> {
    const checked = checkConversion(input);
    if ('faults' in checked) {
      const items = checked.faults.map((f): ErrorItem => ({ code: f.missing ? 'missing_parameter' : 'invalid_parameter', detail: f.detail, source: { field: f.field } }));
      throw new DomainError('invalid', items as [ErrorItem, ...ErrorItem[]]);
    }
    const convert = await converter();
    return { ...checked.ok, result: convert(checked.ok.amount, checked.ok.from, checked.ok.to) };
  }

  /**
   * POST /convert (public): up to 100 amounts, answered in the order given. Each item is
   * `{from, to, amount}`; every fault of every item is one error.
   */
  async convertMany(ctx: RequestContext, input: ConvertManyInput): Promise<Conversion[]> {
    const items: unknown[] = Array.isArray(input.items) ? input.items : [];
    if (items.length > MAX_BULK_ITEMS) throw invalid('too_many_items', `at most ${MAX_BULK_ITEMS} conversions per request`, { field: 'items' });
    const errors: ErrorItem[] = [];
    const asked = items.map((item, index) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) {
        const missing = item === undefined || item === null;
        errors.push({ code: missing ? 'missing_field' : 'invalid_field', detail: missing ? 'attributes are required' : 'attributes must be an object', source: { field: `items.${index}` } });
        return null;
      }
      const checked = checkConversion(item as ConvertInput);
      if ('ok' in checked) return checked.ok;
      for (const f of checked.faults) errors.push({ code: f.missing ? 'missing_field' : 'invalid_field', detail: f.detail, source: { field: `items.${index}.${f.field}` } });
      return null;
    });
    if (errors.length) throw new DomainError('invalid', errors as [ErrorItem, ...ErrorItem[]]);
    const convert = await this.converter(ctx.em);
    return asked.map((a) => {
      const { from, to, amount } = a as NonNullable<typeof a>;
      return { from, to, amount, result: convert(amount, from, to) };
    });
  }

  /** The stored rates (public), by currency code. */
  list(ctx: RequestContext): Promise<CurrencyRate[]> {
    return ctx.em.find(CurrencyRate, { currency: { $in: [...CURRENCIES] } }, { orderBy: { currency: 'asc' } });
  }

  /**
   * Sets the rate of one currency (units per 1 EUR), as of now: the master account only (its own
   * key or one of its signers). Rates are shared by every platform (buying power, price-fall
   * alerts, sorts), so the marketplace's operator sets them, never one platform's staff. EUR is
   * the base and keeps its rate of 1.
   */
  async setRate(ctx: RequestContext, input: RateInput): Promise<CurrencyRate> {
    const caller = requireCaller(ctx);
    if (caller.accountType !== AccountType.Master) throw forbidden('not_allowed', 'only the master account (or one of its signers) may set a currency rate');
    const errors: ErrorItem[] = [];
    const rate = parseRateInput(input.unitsPerEur);
    if (!isCurrency(input.currency)) {
      errors.push({ code: 'invalid_field', detail: `currency must be one of ${CURRENCIES.join(', ')}`, source: { field: 'currency' } });
    }
    if (!rate) {
      errors.push({ code: 'invalid_field', detail: 'units_per_eur must be a positive decimal with at most 18 digits before and 12 after the point', source: { field: 'unitsPerEur' } });
    }
    if (errors.length) throw new DomainError('invalid', errors as [ErrorItem, ...ErrorItem[]]);
    const currency = input.currency as Currency;
    if (currency === BASE_CURRENCY) throw invalid('rate_fixed', `${BASE_CURRENCY} is the base currency; its rate is always 1`, { field: 'currency' });
    return inTransaction(ctx, async (em, scope) => {
      const before = await rowsOf<RateRow>(em, ratesBefore([currency]));
      const now = new Date();
      const stored = await em.upsert(CurrencyRate, { currency, unitsPerEur: (rate as Decimal).toFixed(), asOf: now, updatedAt: now }, { onConflictFields: ['currency'] });
      await rowsOf(em, repriceLots([currency]));
      await this.searches.matchPriceFalls(em, scope, movedRates(before, new Map([[currency, rate as Decimal]])));
      return stored;
    });
  }

  /**
   * Writes the rates of the source document, under a transaction-scoped advisory lock so that
   * one instance writes at a time (another instance that holds it is refreshing already: this
   * one skips). A stored rate newer than the document (set by the master account since) is kept, and an
   * unchanged one is not rewritten. Returns how many rates changed, or null when skipped.
   */
  async applyRates(em: EntityManager, doc: RatesDocument): Promise<number | null> {
    return inTransaction({ em }, async (tx, scope) => {
      const [{ locked }] = await rowsOf<TryLocked>(tx, sql`select pg_try_advisory_xact_lock(${RATES_REFRESH_LOCK}) as locked`);
      if (!locked) return null;
      const rows = [...doc.rates];
      const before = await rowsOf<RateRow>(tx, ratesBefore(rows.map(([currency]) => currency)));
      const changed = await rowsOf<Pick<RateRow, 'currency'>>(
        tx,
        sql`insert into currency_rates (currency, units_per_eur, as_of, updated_at)
           values ${sql.join(rows.map(([currency, rate]) => sql`(${currency}, ${rate.toFixed()}::numeric, ${doc.asOf.toISOString()}::timestamptz, now())`))}
         on conflict (currency) do update
           set units_per_eur = excluded.units_per_eur, as_of = excluded.as_of, updated_at = now()
           where currency_rates.as_of <= excluded.as_of
             and (currency_rates.units_per_eur <> excluded.units_per_eur or currency_rates.as_of <> excluded.as_of)
         returning currency`,
      );
      if (changed.length) {
        await rowsOf(tx, repriceLots(changed.map((c) => c.currency)));
        await this.searches.matchPriceFalls(tx, scope, movedRates(before, new Map(changed.map((c) => [c.currency, doc.rates.get(c.currency as Currency) as Decimal]))));
      }
      return changed.length;
    });
  }
}
