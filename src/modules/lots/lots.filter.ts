import Decimal from 'decimal.js';
import { z } from 'zod';
import { DEFAULT_TEXT_MAX, type FilterKind } from '../../core/filter-kinds';
import { parseMoney, type Money } from '../../core/money';
import type { Range } from '../../core/range';
import { withoutNulls } from '../../core/validate';
import { termOf, type Leniency } from '../../core/vocabulary';
import { LOT_FILTER_KINDS } from './lots.filter.table';

export const LOT_SORTS = ['start_time', 'time_left', 'price', 'buy_now_price', 'created_at', 'updated_at'] as const;
export type LotSortKey = (typeof LOT_SORTS)[number];

const text = (max: number) => z.string().min(1, `must be 1 to ${max} characters`).max(max, `must be 1 to ${max} characters`);
const items = (item: z.ZodType<string>) => z.array(item).min(1, 'must be a list without empty items');

const term = (values: readonly string[], leniency: Leniency) =>
  z.string().transform((raw, ctx) => {
    const found = termOf(raw, values, leniency);
    if (found === undefined) ctx.addIssue({ code: 'custom', message: `must be one of ${values.join(', ')}` });
    return found ?? z.NEVER;
  });

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

/** What a filter of the kind holds once checked. */
type Checked<K extends FilterKind> = K extends { kind: 'string' | 'enum' }
  ? string
  : K extends { kind: 'list' }
    ? string[]
    : K extends { kind: 'integer' }
      ? number
      : K extends { kind: 'boolean' }
        ? boolean
        : K extends { of: 'integer' }
          ? Range<number>
          : Range<Money>;

/** The domain's check of a filter of the kind, given as a value (a list, a number, a range object) rather than as query text. */
function schemaOf(kind: FilterKind): z.ZodType {
  switch (kind.kind) {
    case 'string':
      return text(kind.max ?? DEFAULT_TEXT_MAX);
    case 'enum':
      return term(kind.values, kind);
    case 'list': {
      const item = kind.values ? term(kind.values, kind) : z.string();
      return items(kind.item ? z.string().regex(kind.item, 'has an invalid item').pipe(item) : item);
    }
    case 'integer':
      return integer;
    case 'boolean':
      return z.boolean();
    case 'range':
      return kind.of === 'integer' ? intRange : decimalRange;
  }
}

type Kinds = typeof LOT_FILTER_KINDS;

/** Every filter of the lot index; an absent (or null) one does not filter. */
const filterFields = z
  .object(Object.fromEntries(Object.entries(LOT_FILTER_KINDS).map(([name, kind]) => [name, schemaOf(kind)])) as { [N in keyof Kinds]: z.ZodType<Checked<Kinds[N]>> })
  .partial();

export const LOT_FILTER_FIELDS = filterFields.keyof().options;

export const lotFilterInput = z.preprocess((v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? withoutNulls(v) : v), filterFields);
export type LotFilter = z.output<typeof lotFilterInput>;
