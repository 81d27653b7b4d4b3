import { z } from 'zod';
import { invalid } from '../../core/errors';
import { integerId } from '../../core/ids';
import { httpLink } from '../../core/links';
import { priceInput, CURRENCIES } from '../../core/money';
import { cursorPageInput, sortInput } from '../../core/page';
import { isCurrency } from '../currency';
import type { ReferenceService } from '../reference';
import { LOT_GROUPS } from './lots.aggregate';
import { LOT_SORTS, lotFilterInput } from './lots.filter';
import { reserveFault } from './lots.reserve';

const text = (max: number) => z.string().trim().min(1).max(max);
const links = z.array(httpLink()).max(100);
const price = priceInput;

/** Lot details on creation: country, year, maker and model required; the rest optional. */
export function detailsSchema(reference: ReferenceService) {
  const maxYear = new Date().getUTCFullYear() + 1;
  return z.object({
    country: z.string().refine((c) => reference.isCountryCode(c), 'must be an ISO 3166-1 alpha-3 code'),
    year: z.number().int().min(1886).max(maxYear),
    maker: text(100),
    model: text(100),
    city: text(100).optional(),
    color: text(50).optional(),
    lot_name: text(200).optional(),
    notes: z.string().max(10_000).optional(),
    wheel: z
      .string()
      .transform((w) => w.toLowerCase())
      .pipe(z.enum(['left', 'right']))
      .optional(),
    vin_code: z.string().trim().regex(/^[A-HJ-NPR-Z0-9]{11,17}$/i, 'must be a VIN of 11 to 17 letters and digits').transform((v) => v.toUpperCase()).optional(),
    fuel_type: z
      .string()
      .transform((f) => f.toLowerCase())
      .refine((f) => reference.isFuelValue(f), 'must be a fuel value of /enums/fuels')
      .optional(),
    transmission: z
      .string()
      .transform((t) => t.toUpperCase())
      .refine((t) => reference.isTransmission(t), 'must be a transmission id of /enums/transmissions')
      .optional(),
    registered: z.boolean().optional(),
    hd_img_links: links.optional(),
    full_img_links: links.optional(),
    video_link: httpLink().optional(),
    engine_volume: z.number().min(0).max(100).optional(),
    odometer_value: z.union([z.number(), z.string().regex(/^\d+(\.\d+)?$/).transform(Number)]).pipe(z.number().min(0).max(10_000_000)).optional(),
    price_negotiable: z.boolean().optional(),
    body_style: text(50).optional(),
    document_type: text(50).optional(),
    drive_type: text(50).optional(),
    engine_cylinders: text(20).optional(),
    mileage_type: text(20).optional(),
    primary_damage: text(100).optional(),
    secondary_damage: text(100).optional(),
    state: text(50).optional(),
    retain_value: z.number().int().optional(),
  });
}
export type LotDetails = z.infer<ReturnType<typeof detailsSchema>>;

/** The longest a lot may last, and the furthest ahead it may start: a year, in seconds. */
const MAX_AHEAD_S = 365 * 86400;

/** A lot to create, with the step and price rules of docs/auction-rules.md. */
export function createLotInput(reference: ReferenceService) {
  return z
    .object({
      type: z.enum(['eng', 'no_auction']),
      currency: z.enum(CURRENCIES),
      startPrice: price,
      buyNowPrice: price,
      deposit: price,
      minStep: price,
      maxStep: price.optional(),
      // Strict: a detail the lot has no field for (`colour`) is refused, also where GraphQL takes details as a JSON object.
      details: detailsSchema(reference).strict(),
      b2bVehiclePrice: price.optional(),
      b2cVehiclePrice: price.optional(),
      b2cTotalPrice: price.optional(),
      reservePrice: price.optional(),
      // A lot is scheduled at most a year ahead, as it lasts at most a year: a later time (or
      // milliseconds sent as seconds) is a mistake, and past year 9999 no database can hold it.
      startTime: z
        .number()
        .int()
        .positive()
        .refine((v) => v <= Date.now() / 1000 + MAX_AHEAD_S, 'must be at most a year ahead (epoch seconds)')
        .optional(),
      duration: z.number().int().positive().max(MAX_AHEAD_S).optional(),
    })
    .superRefine((v, ctx) => {
      const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
      if (!v.startPrice || !v.buyNowPrice || !v.minStep || !v.deposit) return;
      if (v.type === 'eng') {
        if (v.minStep.isZero()) issue('minStep', 'must be above zero for an auction');
        if (!v.maxStep) issue('maxStep', 'is required for an auction');
        else if (v.maxStep.lte(v.minStep)) issue('maxStep', 'must be greater than min_step');
        if (v.buyNowPrice.gt(0) && v.buyNowPrice.lte(v.startPrice)) issue('buyNowPrice', 'must exceed start_price');
        const fault = v.reservePrice && reserveFault(v.reservePrice, v.startPrice, v.buyNowPrice);
        if (fault) issue('reservePrice', fault);
      } else {
        if (v.reservePrice) issue('reservePrice', 'is for auctions only');
        if (!v.startPrice.isZero()) issue('startPrice', 'must be zero for a direct sale');
        if (!v.minStep.isZero()) issue('minStep', 'must be zero for a direct sale');
        if (v.maxStep && !v.maxStep.isZero()) issue('maxStep', 'must be zero for a direct sale');
        if (v.buyNowPrice.isZero()) issue('buyNowPrice', 'must be above zero for a direct sale');
      }
    });
}
export type NewLot = z.output<ReturnType<typeof createLotInput>>;
export type NewLotInput = z.input<ReturnType<typeof createLotInput>>;
export const CREATE_LOT_FIELDS = [
  'type',
  'currency',
  'startPrice',
  'buyNowPrice',
  'deposit',
  'minStep',
  'maxStep',
  'details',
  'b2bVehiclePrice',
  'b2cVehiclePrice',
  'b2cTotalPrice',
  'reservePrice',
  'startTime',
  'duration',
] as const satisfies readonly (keyof NewLotInput)[];

/** PATCH /lots/{id}: what a lot's managers may change after its creation (its reserve price, null to drop it). */
export const updateLotInput = z.object({ id: z.unknown(), reservePrice: price.nullable().optional() }).strict();
export type UpdateLotInput = z.input<typeof updateLotInput>;

/** One lot: its id, and the currency to show its prices in (the lot's own by default). */
export const getLotInput = z.object({
  id: z.unknown(),
  currency: z
    .string()
    .refine(isCurrency, { message: `must be one of ${CURRENCIES.join(', ')}`, params: { code: 'invalid_parameter' } })
    .nullish()
    .transform((c) => c ?? undefined),
});
export type GetLotInput = z.input<typeof getLotInput>;

/** A page of the lot index: filtered, sorted (newest start first by default), from a cursor. */
export const lotPageInput = z.object({
  filter: lotFilterInput.prefault({}),
  sort: sortInput(LOT_SORTS, { key: 'start_time', desc: true }),
  page: cursorPageInput,
});
export type LotPageInput = z.input<typeof lotPageInput>;
export type LotPage = z.output<typeof lotPageInput>;

export const lotCountInput = z.object({ filter: lotFilterInput.prefault({}) });
export type LotCountInput = z.input<typeof lotCountInput>;

/**
 * A request body's optional lot_id beside a lot's path: given, it is a lot id (a positive integer,
 * as a JSON number or a string) and names the path's lot; a document about another lot is malformed.
 */
export function requireBodyLotId(given: unknown, pathLotId: string): void {
  if (given === undefined) return;
  const id = integerId(given);
  const pointer = '/data/attributes/lot_id';
  if (id === null || /^0+$/.test(id)) throw invalid('invalid_field', 'lot_id: must be a positive integer', { pointer });
  if (id !== pathLotId) throw invalid('invalid_field', 'lot_id must be the id of the lot in the path', { pointer });
}

/**
 * An aggregate of the lots the filter lists: sums in `currency` (the filter's currency, else
 * DEFAULT_PRICE_CURRENCY), grouped by `groupBy` when given.
 */
export const lotAggregateInput = z.object({
  filter: lotFilterInput.prefault({}),
  currency: z
    .string()
    .refine(isCurrency, { message: `must be one of ${CURRENCIES.join(', ')}`, params: { code: 'invalid_parameter' } })
    .nullish()
    .transform((c) => c ?? undefined),
  groupBy: z
    .enum(LOT_GROUPS, { message: `must be one of ${LOT_GROUPS.join(', ')}` })
    .nullish()
    .transform((g) => g ?? undefined),
});
export type LotAggregateInput = z.input<typeof lotAggregateInput>;
