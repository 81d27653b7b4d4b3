import { formatMoney, Money } from '../../core/money';
import { rfc3339 } from '../../core/time';
import type { Converter } from '../currency/currency.service';
import { LOT_TYPE_NAMES, LotType } from '../lots/lots.entity';
import type { LotDraft } from '../lots/lots.draft';
import { REQUEST_STATE_NAMES, type CreateLotRequest } from './requests.entity';

/** Prices shown in another currency than the request's own, converted. */
export interface RequestPricing {
  currency: string;
  convert: Converter;
}

const PRICES = ['start_price', 'buy_now_price', 'deposit', 'min_step', 'max_step', 'b2b_vehicle_price', 'b2c_vehicle_price', 'b2c_total_price'] as const;
type PriceKey = (typeof PRICES)[number];

/**
 * The reviewable request of INTERFACE.md §2.9 and PROTOCOL.md §9, transport-neutral and
 * snake_case: built from the stored body (start_time in RFC 3339, lot_type as integer plus label)
 * so that a client can convert back and recompute `hash`. Optional members that were not given
 * are null.
 */
export function requestFields(r: CreateLotRequest, pricing?: RequestPricing) {
  const body: LotDraft = r.body;
  const currency = pricing?.currency ?? body.currency;
  const price = (key: PriceKey) => {
    const v = body[key];
    if (v === undefined) return null;
    return formatMoney(pricing ? pricing.convert(v, body.currency, currency) : v);
  };
  const lotType = body.type === 'eng' ? LotType.Eng : LotType.NoAuction;
  const prices = Object.fromEntries(PRICES.map((k) => [k, price(k)])) as Record<PriceKey, string | null>;
  return {
    ...prices,
    buy_now_support: new Money(body.buy_now_price).gt(0),
    currency,
    details: body.details as Record<string, unknown>,
    start_time: body.start_time === undefined ? null : rfc3339(new Date(body.start_time * 1000)),
    duration: body.duration ?? null,
    lot_type: lotType as number,
    lot_type_str: `lot_type_${LOT_TYPE_NAMES[lotType]}`,
    hash: r.hash,
    lot_id: r.lotId === null ? null : Number(r.lotId),
    organizer_id: r.requestor,
    platform_id: r.platformId,
    requestor: r.requestor,
    reviewer: r.platformId,
    request_state: r.requestState as number,
    request_state_str: REQUEST_STATE_NAMES[r.requestState],
    reject_reason: r.rejectReason,
    created_at: rfc3339(r.createdAt),
    updated_at: rfc3339(r.updatedAt),
  };
}
export type RequestFields = ReturnType<typeof requestFields>;
