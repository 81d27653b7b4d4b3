import { rfc3339 } from '../../core/time';
import type { Resource } from '../../rest/document';
import type { LotIncludes } from './lots.includes.presenter';
import type { LotView } from './lots.view';

/** What a lot shows of its reserve: nothing without one, `reserve_met` to all, the amount where the view holds it. */
function reserveAttributes(v: LotView) {
  if (v.reserveMet === null) return {};
  return {
    reserve_met: v.reserveMet,
    ...(v.reservePrice ? { reserve_price: v.reservePrice } : {}),
    ...(v.lapsedAt ? { lapsed_at: rfc3339(v.lapsedAt) } : {}),
  };
}

/** A lot's view under the wire's names. */
export function lotAttributes(v: LotView) {
  return {
    buy_now_price: v.buyNowPrice,
    start_price: v.startPrice,
    deposit: v.deposit,
    highest_bid: v.highestBid,
    min_step: v.minStep,
    max_step: v.maxStep,
    b2b_vehicle_price: v.b2bVehiclePrice,
    b2c_vehicle_price: v.b2cVehiclePrice,
    b2c_total_price: v.b2cTotalPrice,
    buy_now_support: v.buyNowSupport,
    currency: v.currency,
    created_at: rfc3339(v.createdAt),
    updated_at: rfc3339(v.updatedAt),
    start_time: rfc3339(v.startTime),
    duration: String(v.duration),
    end_time: rfc3339(v.endTime),
    lot_state: v.lotState,
    lot_state_str: v.lotStateStr,
    lot_type: v.lotType,
    lot_type_str: v.lotTypeStr,
    organizer_id: v.organizerId,
    publisher_id: v.publisherId,
    winner_id: v.winnerId ?? '',
    details: v.details,
    // Only a lot created under platform rules shows their version: without rules, the contract's attributes alone.
    ...(v.rulesVersion === null ? {} : { rules_version: v.rulesVersion }),
    ...reserveAttributes(v),
  };
}

/** Lots as resources, each with the relationships its includes found (callbacks are always named). */
export function presentLots(views: readonly LotView[], relationships: LotIncludes['relationships']): Resource[] {
  return views.map((v) => ({
    type: 'lots',
    id: v.id,
    attributes: lotAttributes(v),
    relationships: relationships.get(v.id) ?? { callbacks: { data: [] } },
  }));
}
