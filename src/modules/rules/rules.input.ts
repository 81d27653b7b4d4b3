import { z } from 'zod';
import { formatMoney, priceInput, type Money } from '../../core/money';
import { totalFallsAt } from './fees';
import type { AuctionRules, DepositRule, FeeBand } from './rules.model';

const money = priceInput.transform(formatMoney);
const positive = priceInput.refine((m: Money) => m.gt(0), 'must be greater than 0').transform(formatMoney);
const percent = z
  .union([z.string(), z.number()])
  .transform(String)
  .refine((p) => /^\d{1,3}(\.\d{1,4})?$/.test(p) && Number(p) <= 100, 'must be a percentage from 0 to 100 with at most four decimals')
  .transform((p) => String(Number(p)));
const multiple = z
  .union([z.string(), z.number()])
  .transform(String)
  .refine((m) => /^\d{1,6}(\.\d{1,4})?$/.test(m) && Number(m) > 0, 'must be a number greater than 0 with at most four decimals')
  .transform((m) => String(Number(m)));
/** Whole seconds from 1 to `max` (ten years unless a rule bounds it closer): one bound, so one error past it. */
const secondsUpTo = (max: number) => z.number().int().min(1).max(max);
const seconds = secondsUpTo(10 * 365 * 86400);

/** Bands ascend by `upTo`; only the last may be open (null). Each fault names the band's `upTo`. */
function ascending(bands: { upTo: string | null }[], ctx: z.RefinementCtx): void {
  bands.forEach((band, i) => {
    if (band.upTo === null && i < bands.length - 1) ctx.addIssue({ code: 'custom', path: [i, 'upTo'], message: 'only the last band may be open (null)' });
    const previous = bands[i - 1]?.upTo;
    if (band.upTo !== null && previous && Number(band.upTo) <= Number(previous)) {
      ctx.addIssue({ code: 'custom', path: [i, 'upTo'], message: `must be greater than the previous band's upTo (${previous})`, params: { mentions: ['upTo'] } });
    }
  });
}

const upTo = positive.nullable();

// The bands and the deposit rule are strict: a member they do not have (`extra`) is refused, not dropped.
const incrementBand = z
  .strictObject({ upTo, minStep: positive, maxStep: positive.nullable().optional() })
  .transform((b) => ({ upTo: b.upTo, minStep: b.minStep, maxStep: b.maxStep ?? null }))
  .superRefine((b, ctx) => {
    if (b.maxStep !== null && Number(b.maxStep) < Number(b.minStep)) ctx.addIssue({ code: 'custom', path: ['maxStep'], message: 'must not be less than minStep', params: { mentions: ['minStep'] } });
  });

const feeBand = z
  .strictObject({ upTo, fixed: money.optional(), percent: percent.optional() })
  .transform((b) => ({ upTo: b.upTo, fixed: b.fixed ?? '0.00', percent: b.percent ?? '0' }));

const depositRule = z
  .strictObject({ fixed: money.optional(), percent: percent.optional(), floor: money.optional() })
  .superRefine((d, ctx) => {
    if ((d.fixed === undefined) === (d.percent === undefined)) ctx.addIssue({ code: 'custom', message: 'must give either fixed, or percent (with an optional floor)' });
    else if (d.fixed !== undefined && d.floor !== undefined) ctx.addIssue({ code: 'custom', path: ['floor'], message: 'goes with percent only' });
  })
  .transform((d): DepositRule => (d.fixed !== undefined ? { fixed: d.fixed } : { percent: d.percent as string, floor: d.floor ?? '0.00' }));

/** The most bands an increment table or a fee schedule has. */
export const MAX_BANDS = 50;

const bands = <T extends z.ZodType<{ upTo: string | null }>>(band: T) => z.array(band).min(1).max(MAX_BANDS).superRefine(ascending);

/** A higher price never costs a buyer less in total: the fault names the band whose first cent would. */
function totalRising(schedule: FeeBand[], ctx: z.RefinementCtx): void {
  const fall = totalFallsAt(schedule);
  if (!fall) return;
  const { band, top, next } = fall;
  const message = `a price just above ${schedule[band - 1].upTo} would cost ${next.toFixed(2)} in total (price plus fee), less than ${top.toFixed(2)} at ${schedule[band - 1].upTo}; the total must not fall as the price rises`;
  ctx.addIssue({ code: 'custom', path: [band], message, params: { code: 'fee_total_falls' } });
}

/**
 * PATCH /platforms/{id}/rules: each rule given replaces the current one, null turns it off, and
 * an absent one stays as it is.
 */
export const updateRulesInput = z
  .object({
    platformId: z.string().min(1),
    increments: bands(incrementBand).nullable().optional(),
    minDuration: seconds.nullable().optional(),
    maxDuration: seconds.nullable().optional(),
    maxLotsPerSeller: z.number().int().min(1).max(100_000).nullable().optional(),
    deposit: depositRule.nullable().optional(),
    buyerFees: bands(feeBand).superRefine(totalRising).nullable().optional(),
    extendWindow: secondsUpTo(86400).nullable().optional(),
    extendBy: secondsUpTo(86400).nullable().optional(),
    maxExtensionSeconds: secondsUpTo(30 * 86400).nullable().optional(),
    reserveLapseAfter: seconds.nullable().optional(),
    secondChanceTtl: secondsUpTo(30 * 86400).nullable().optional(),
    buyingPowerMultiple: multiple.nullable().optional(),
  })
  .strict();
export type UpdateRulesInput = z.input<typeof updateRulesInput>;
export type RulesChanges = Omit<z.infer<typeof updateRulesInput>, 'platformId'>;

/** The rules after a change (the rules that go in pairs are checked by the service, since either may be the one changed). */
export function changedRules(current: AuctionRules, changes: RulesChanges): AuctionRules {
  const next = { ...current };
  for (const [key, value] of Object.entries(changes) as [keyof AuctionRules, unknown][]) {
    if (value !== undefined) (next as Record<string, unknown>)[key] = value;
  }
  return next;
}

export const feeEstimateInput = z.object({ lotId: z.string().min(1), amount: priceInput });
export type FeeEstimateInput = z.input<typeof feeEstimateInput>;
