import { formatMoney, Money } from '../../core/money';
import { wholeSecond } from '../../core/time';
import { Lot, LotType } from './lots.entity';
import type { NewLot, LotDetails } from './lots.input';

export const DEFAULT_DURATION_SECONDS = 7 * 86400;

/**
 * The normalised create-lot body: prices as two-decimal strings, start_time as
 * epoch seconds, details as validated; what was not given is absent. It is what a create_lot
 * request stores and hashes, and what a lot is made from.
 */
export interface LotDraft {
  type: 'eng' | 'no_auction';
  currency: string;
  start_price: string;
  buy_now_price: string;
  deposit: string;
  min_step: string;
  max_step?: string;
  b2b_vehicle_price?: string;
  b2c_vehicle_price?: string;
  b2c_total_price?: string;
  reserve_price?: string;
  start_time?: number;
  duration?: number;
  details: LotDetails;
}

export function draftOf(a: NewLot): LotDraft {
  const optional = <K extends string>(key: K, v: Money | undefined) => (v === undefined ? {} : { [key]: formatMoney(v) });
  return {
    type: a.type,
    currency: a.currency,
    start_price: formatMoney(a.startPrice),
    buy_now_price: formatMoney(a.buyNowPrice),
    deposit: formatMoney(a.deposit),
    min_step: formatMoney(a.minStep),
    ...optional('max_step', a.maxStep),
    ...optional('b2b_vehicle_price', a.b2bVehiclePrice),
    ...optional('b2c_vehicle_price', a.b2cVehiclePrice),
    ...optional('b2c_total_price', a.b2cTotalPrice),
    ...optional('reserve_price', a.reservePrice),
    ...(a.startTime === undefined ? {} : { start_time: a.startTime }),
    ...(a.duration === undefined ? {} : { duration: a.duration }),
    details: a.details,
  };
}

/**
 * What becomes of a given start time already past when the lot is made: `keep` it (POST /lots by
 * staff, which refused one more than START_TIME_TOLERANCE_S old, so the lot ends at start +
 * duration as the contract says), or start `now` (a create-lot request approved after its start).
 */
export type PastStart = 'keep' | 'now';

/** How far in the past a given start_time may be. */
export const START_TIME_TOLERANCE_S = 60;

/** The lot's own fields from a draft; no start time starts the lot at the current second. */
export function lotFieldsOf(draft: LotDraft, organizerId: string, publisherId: string, pastStart: PastStart, now = wholeSecond()) {
  const given = draft.start_time === undefined ? null : new Date(draft.start_time * 1000);
  const startTime = given && (given > now || pastStart === 'keep') ? given : now;
  const duration = draft.duration ?? DEFAULT_DURATION_SECONDS;
  const money = (v: string | undefined) => (v === undefined ? null : new Money(v));
  const d = draft.details;
  return {
    lotType: draft.type === 'eng' ? LotType.Eng : LotType.NoAuction,
    currency: draft.currency,
    startPrice: new Money(draft.start_price),
    buyNowPrice: new Money(draft.buy_now_price),
    deposit: new Money(draft.deposit),
    minStep: new Money(draft.min_step),
    maxStep: new Money(draft.max_step ?? '0'),
    b2bVehiclePrice: money(draft.b2b_vehicle_price),
    b2cVehiclePrice: money(draft.b2c_vehicle_price),
    b2cTotalPrice: money(draft.b2c_total_price),
    reservePrice: money(draft.reserve_price),
    startTime,
    duration,
    endTime: new Date(startTime.getTime() + duration * 1000),
    organizerId,
    publisherId,
    details: { ...d, lot_name: lotNameOf(d) },
    ...detailColumns(d),
  } satisfies Partial<Lot>;
}

type DetailsForColumns = Pick<LotDetails, 'country' | 'year' | 'maker' | 'model' | 'city' | 'vin_code' | 'wheel' | 'fuel_type' | 'transmission' | 'registered' | 'engine_volume'>;

export const lotNameOf = (d: Pick<LotDetails, 'lot_name' | 'year' | 'maker' | 'model'>) => d.lot_name ?? `${d.year} ${d.maker} ${d.model}`;

/** The lot columns copied out of its details, for filtering and sorting. */
export function detailColumns(d: DetailsForColumns) {
  return {
    country: d.country,
    city: d.city ?? null,
    year: d.year,
    maker: d.maker,
    model: d.model,
    vin: d.vin_code ?? null,
    wheel: d.wheel ?? null,
    fuelType: d.fuel_type ?? null,
    transmission: d.transmission ?? null,
    registered: d.registered ?? null,
    engineVolume: d.engine_volume ?? null,
  };
}
