import { formatMoney, Money } from '../../core/money';
import { rfc3339 } from '../../core/time';
import type { Converter } from '../currency';
import { LOT_TYPE_NAMES, LotType, type LotDraft } from '../lots';
import { REQUEST_STATE_NAMES, type CreateLotRequest } from './requests.entity';

/** Prices shown in another currency than the request's own, converted. */
export interface RequestPricing {
  currency: string;
  convert: Converter;
}

type PriceKey = 'start_price' | 'buy_now_price' | 'deposit' | 'min_step' | 'max_step' | 'b2b_vehicle_price' | 'b2c_vehicle_price' | 'b2c_total_price' | 'reserve_price';

/**
 * The reviewable request as both edges show it, built
 * from the stored body (start time in RFC 3339, lot type as integer plus label) so that a client
 * can convert back and recompute `hash`. Prices are in the asked currency; optional members that
 * were not given are null.
 */
export function requestView(r: CreateLotRequest, pricing?: RequestPricing) {
  const body: LotDraft = r.body;
  const currency = pricing?.currency ?? body.currency;
  const price = (key: PriceKey) => {
    const v = body[key];
    if (v === undefined) return null;
    return formatMoney(pricing ? pricing.convert(v, body.currency, currency) : v);
  };
  const lotType = body.type === 'eng' ? LotType.Eng : LotType.NoAuction;
  return {
    startPrice: price('start_price') as string,
    buyNowPrice: price('buy_now_price') as string,
    deposit: price('deposit') as string,
    minStep: price('min_step') as string,
    maxStep: price('max_step'),
    b2bVehiclePrice: price('b2b_vehicle_price'),
    b2cVehiclePrice: price('b2c_vehicle_price'),
    b2cTotalPrice: price('b2c_total_price'),
    // Only a body that gave a reserve shows one: the contract's requests show no such attribute.
    ...(body.reserve_price === undefined ? {} : { reservePrice: price('reserve_price') }),
    buyNowSupport: new Money(body.buy_now_price).gt(0),
    currency,
    details: body.details as Record<string, unknown>,
    startTime: body.start_time === undefined ? null : rfc3339(new Date(body.start_time * 1000)),
    duration: body.duration ?? null,
    lotType: lotType as number,
    lotTypeStr: `lot_type_${LOT_TYPE_NAMES[lotType]}`,
    hash: r.hash,
    lotId: r.lotId,
    organizerId: r.requestor,
    platformId: r.platformId,
    requestor: r.requestor,
    reviewer: r.platformId,
    requestState: r.requestState as number,
    requestStateStr: REQUEST_STATE_NAMES[r.requestState],
    rejectReason: r.rejectReason,
    createdAt: rfc3339(r.createdAt),
    updatedAt: rfc3339(r.updatedAt),
  };
}
