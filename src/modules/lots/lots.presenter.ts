import type { Money } from '../../core/money';
import { rfc3339 } from '../../core/time';
import type { Resource } from '../../rest/document';
import { shownPrice, type Converter } from '../currency/currency.service';
import { shownSteps } from '../rules/increments';
import type { IncrementBand } from '../rules/rules.model';
import { reserveMet } from '../rules/reserve';
import { LOT_STATE_NAMES, LOT_TYPE_NAMES, shownHighestBid, type ListedLot } from './lots.entity';
import type { LotIncludes } from './lots.includes.presenter';
import type { LotsView } from './lots.service';

export interface LotPresentation {
  /** Show prices in this currency instead of the lot's own. */
  currency?: string;
  convert: Converter;
  callbackIds: string[];
  /** The lot's increment table: the steps shown are its band's. */
  increments?: readonly IncrementBand[];
  /** The caller may see the reserve price (core/policies.ts `seesReservePrice`). */
  seesReserve?: boolean;
}

/** What a lot shows of its reserve: nothing without one, `reserve_met` to all, the amount to its managers. */
function reserveAttributes(lot: ListedLot, seesReserve: boolean, price: (v: Money) => string) {
  const met = reserveMet(lot);
  if (met === null) return {};
  return {
    reserve_met: met,
    ...(seesReserve && lot.reservePrice ? { reserve_price: price(lot.reservePrice) } : {}),
    ...(lot.lapsedAt ? { lapsed_at: rfc3339(lot.lapsedAt) } : {}),
  };
}

export function lotAttributes(lot: ListedLot, p: Pick<LotPresentation, 'currency' | 'convert' | 'increments' | 'seesReserve'>) {
  const currency = p.currency ?? lot.currency;
  const price = (v: Money | null) => (v === null ? null : shownPrice(p.convert, v, lot.currency, currency));
  const steps = shownSteps(lot, p.increments ?? null);
  return {
    buy_now_price: price(lot.buyNowPrice),
    start_price: price(lot.startPrice),
    deposit: price(lot.deposit),
    highest_bid: price(shownHighestBid(lot)),
    min_step: price(steps.minStep),
    max_step: price(steps.maxStep),
    b2b_vehicle_price: price(lot.b2bVehiclePrice),
    b2c_vehicle_price: price(lot.b2cVehiclePrice),
    b2c_total_price: price(lot.b2cTotalPrice),
    buy_now_support: lot.buyNowPrice.gt(0),
    currency,
    created_at: rfc3339(lot.createdAt),
    updated_at: rfc3339(lot.updatedAt),
    start_time: rfc3339(lot.startTime),
    duration: String(lot.duration),
    end_time: rfc3339(lot.endTime),
    lot_state: lot.lotState,
    lot_state_str: `lot_state_${LOT_STATE_NAMES[lot.lotState]}`,
    lot_type: lot.lotType,
    lot_type_str: `lot_type_${LOT_TYPE_NAMES[lot.lotType]}`,
    organizer_id: lot.organizerId,
    publisher_id: lot.publisherId,
    winner_id: lot.winnerId ?? '',
    details: lot.details,
    // Only a lot created under platform rules shows their version: without rules, the contract's attributes alone.
    ...(lot.rulesVersion === null ? {} : { rules_version: lot.rulesVersion }),
    ...reserveAttributes(lot, p.seesReserve ?? false, (v) => price(v) as string),
  };
}

export function presentLot(lot: ListedLot, p: LotPresentation): Resource {
  return {
    type: 'lots',
    id: lot.id,
    attributes: lotAttributes(lot, p),
    relationships: { callbacks: { data: p.callbackIds.map((id) => ({ type: 'callbacks', id })) } },
  };
}

/**
 * Lots in the currency of their view, each with the relationships its includes found (callbacks
 * are always named); `seesReserve` answers, per lot, whether the caller sees its reserve price.
 */
export function presentLots(view: LotsView, relationships: LotIncludes['relationships'], seesReserve: (lot: ListedLot) => boolean): Resource[] {
  return view.lots.map((lot) => {
    const resource = presentLot(lot, { currency: view.currency, convert: view.convert, callbackIds: [], increments: view.increments?.get(lot.id), seesReserve: seesReserve(lot) });
    return { ...resource, relationships: relationships.get(lot.id) ?? resource.relationships };
  });
}
