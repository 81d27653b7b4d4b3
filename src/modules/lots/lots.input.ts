import { z } from 'zod';
import { priceInput } from '../../core/money';
import { CURRENCIES } from '../accounts/accounts.input';
import type { ReferenceService } from '../reference/reference.service';

const text = (max: number) => z.string().trim().min(1).max(max);
const links = z.array(z.string().url().max(2048)).max(100);
const price = priceInput;

/** Lot details on creation (PROTOCOL.md §9): country, year, maker and model required; the rest optional. */
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
    video_link: z.string().url().max(2048).optional(),
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

/** POST /lots attributes with the step and price rules of INTERFACE.md §4.5 and PROTOCOL.md §6. */
export function createLotSchema(reference: ReferenceService) {
  return z
    .object({
      type: z.enum(['eng', 'no_auction']),
      currency: z.enum(CURRENCIES),
      start_price: price,
      buy_now_price: price,
      deposit: price,
      min_step: price,
      max_step: price.optional(),
      details: detailsSchema(reference),
      b2b_vehicle_price: price.optional(),
      b2c_vehicle_price: price.optional(),
      b2c_total_price: price.optional(),
      start_time: z.number().int().positive().optional(),
      duration: z.number().int().positive().max(365 * 86400).optional(),
    })
    .superRefine((v, ctx) => {
      const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
      if (!v.start_price || !v.buy_now_price || !v.min_step || !v.deposit) return;
      if (v.type === 'eng') {
        if (v.min_step.isZero()) issue('min_step', 'must be above zero for an auction');
        if (!v.max_step) issue('max_step', 'is required for an auction');
        else if (v.max_step.lte(v.min_step)) issue('max_step', 'must be greater than min_step');
        if (v.buy_now_price.gt(0) && v.buy_now_price.lte(v.start_price)) issue('buy_now_price', 'must exceed start_price');
      } else {
        if (!v.start_price.isZero()) issue('start_price', 'must be zero for a direct sale');
        if (!v.min_step.isZero()) issue('min_step', 'must be zero for a direct sale');
        if (v.max_step && !v.max_step.isZero()) issue('max_step', 'must be zero for a direct sale');
        if (v.buy_now_price.isZero()) issue('buy_now_price', 'must be above zero for a direct sale');
      }
    });
}
export type CreateLotAttributes = z.infer<ReturnType<typeof createLotSchema>>;
