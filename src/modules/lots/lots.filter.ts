import Decimal from 'decimal.js';
import { z } from 'zod';
import { parseMoney, type Money } from '../../core/money';
import type { Range } from '../../core/range';
import { withoutNulls } from '../../core/validate';
import { termOf } from '../../core/vocabulary';
import { CURRENCIES } from '../accounts/accounts.input';
import { FUEL_IDS } from '../reference/reference.service';

export const LOT_SORTS = ['start_time', 'time_left', 'price', 'buy_now_price', 'created_at', 'updated_at'] as const;
export type LotSortKey = (typeof LOT_SORTS)[number];

export const LOT_TYPE_VALUES = ['no_auction', 'eng', 'partnerA', 'partnerB'] as const;
export const LOT_STATE_VALUES = ['pending', 'sold', 'finished'] as const;
export const FUEL_VALUES = ['cng', 'convertible', 'diesel', 'electric', 'gas', 'plugin_hybrid', 'hybrid', 'hydrogen', 'flexible', 'lpg'] as const;
export const ACCOUNT_TYPE_VALUES = ['user', 'admin', 'broker', 'platform'] as const;
export const PARTNER_A_STATUS_VALUES = ['approval', 'pure', 'min'] as const;
export const WHEEL_VALUES = ['left', 'right'] as const;
export const TAB_VALUES = ['won', 'lost'] as const;

export const ACCOUNT_ID = /^G[A-Z2-7]{55}$/;
export const LOT_ID = /^\d{1,18}$/;
export const VIN = /^[A-Za-z0-9]{1,32}$/;

const text = (max: number) => z.string().min(1, `must be 1 to ${max} characters`).max(max, `must be 1 to ${max} characters`);
const account = text(56);
const items = <T extends z.ZodType<string>>(item: T) => z.array(item).min(1, 'must be a list without empty items');
const matching = (pattern: RegExp) => items(z.string().regex(pattern, 'has an invalid item'));

/** Vocabulary filters match in any letter case, and by the aliases given (PROTOCOL.md §9). */
const term = (values: readonly string[], aliases?: Readonly<Record<string, string>>) =>
  z.string().transform((raw, ctx) => {
    const found = termOf(raw, values, { anyCase: true, aliases });
    if (found === undefined) ctx.addIssue({ code: 'custom', message: `must be one of ${values.join(', ')}` });
    return found ?? z.NEVER;
  });
const terms = (values: readonly string[], aliases?: Readonly<Record<string, string>>) => items(term(values, aliases));

/** A range with at least one end, the lower not above the upper. */
function range<T extends number | Money>(end: z.ZodType<T | null>, above: (a: T, b: T) => boolean) {
  return z
    .object({ min: end.optional(), max: end.optional() })
    .transform((r) => ({ min: r.min ?? null, max: r.max ?? null }) as Range<T>)
    .superRefine((r, ctx) => {
      if (r.min === null && r.max === null) ctx.addIssue({ code: 'custom', message: 'needs a min or a max' });
      else if (r.min !== null && r.max !== null && above(r.min, r.max)) ctx.addIssue({ code: 'custom', message: 'min must not exceed max' });
    });
}
const integer = z.number().int('must be an integer');
const decimal = z.union([z.custom<Money>((v) => Decimal.isDecimal(v)), z.string(), z.null()]).transform((v, ctx) => {
  if (v === null || v === '') return null;
  const money = typeof v === 'string' ? parseMoney(v) : v;
  if (money === null) ctx.addIssue({ code: 'custom', message: 'ends must be decimals' });
  return money ?? z.NEVER;
});
const intRange = range<number>(integer.nullable(), (a, b) => a > b);
const decimalRange = range<Money>(decimal, (a, b) => a.gt(b));

/** Every filter of the lot index (INTERFACE.md §4.5, PROTOCOL.md §9); an absent (or null) one does not filter. */
const filterFields = z.object({
  country: text(3),
  city: text(100),
  starsOf: account,
  in: matching(LOT_ID),
  vin: matching(VIN),
  organizerType: term(ACCOUNT_TYPE_VALUES),
  lotType: terms(LOT_TYPE_VALUES),
  lotState: terms(LOT_STATE_VALUES),
  participant: account,
  winner: account,
  notWinner: account,
  wheel: term(WHEEL_VALUES),
  year: intRange,
  engineVolume: decimalRange,
  currency: term(CURRENCIES),
  price: decimalRange,
  transmission: text(30),
  fuel: terms(FUEL_VALUES, FUEL_IDS),
  maker: text(100),
  model: text(100),
  modelPrefix: text(100),
  startTime: integer,
  trimPartnerA: integer,
  trimPartnerB: integer,
  timePeriod: intRange,
  yardNumber: integer,
  partnerAStatus: terms(PARTNER_A_STATUS_VALUES),
  registered: z.boolean(),
  deposit: z.boolean(),
  hasWinner: z.boolean(),
  hasCallbacks: z.boolean(),
  hasRequests: z.boolean(),
  hasParticipants: z.boolean(),
  hasParticipantsFrom: matching(ACCOUNT_ID),
  isFinished: z.boolean(),
  buyNow: z.boolean(),
  search: text(100),
  publisher: matching(ACCOUNT_ID),
  directSalePublisher: matching(ACCOUNT_ID),
  organizer: account,
  winnerAccountType: term(ACCOUNT_TYPE_VALUES),
  invoiceSent: z.boolean(),
  invoicePaid: z.boolean(),
  tab: term(TAB_VALUES),
}).partial();

export const LOT_FILTER_FIELDS = filterFields.keyof().options;

export const lotFilterInput = z.preprocess((v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? withoutNulls(v) : v), filterFields);
export type LotFilter = z.output<typeof lotFilterInput>;
