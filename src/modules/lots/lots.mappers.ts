import type { Money } from '../../core/money';
import { shownPrice, type Converter } from '../currency/currency.service';
import { LOT_STATE_NAMES, LOT_TYPE_NAMES, shownHighestBid, type ListedLot } from './lots.entity';
import type { LotGql } from './lots.types';
import type { LotsView } from './lots.service';
import { shownSteps } from '../rules/increments';
import type { IncrementBand } from '../rules/rules.model';
import { reserveMet } from '../rules/reserve';

/**
 * A lot as GraphQL shows it; its steps are its increment table's band's when it has one. The
 * reserve amount is kept for the `reservePrice` field, which shows it to the lot's managers only.
 */
export function lotGql(lot: ListedLot, convert: Converter, currency = lot.currency, increments: readonly IncrementBand[] | null = null): LotGql {
  const price = (v: Money) => shownPrice(convert, v, lot.currency, currency);
  const maybe = (v: Money | null) => (v === null ? null : price(v));
  const steps = shownSteps(lot, increments);
  return {
    id: lot.id,
    lotType: lot.lotType,
    lotTypeStr: `lot_type_${LOT_TYPE_NAMES[lot.lotType]}`,
    lotState: lot.lotState,
    lotStateStr: `lot_state_${LOT_STATE_NAMES[lot.lotState]}`,
    currency,
    startPrice: price(lot.startPrice),
    buyNowPrice: price(lot.buyNowPrice),
    deposit: price(lot.deposit),
    minStep: price(steps.minStep),
    maxStep: price(steps.maxStep),
    highestBid: price(shownHighestBid(lot)),
    b2bVehiclePrice: maybe(lot.b2bVehiclePrice),
    b2cVehiclePrice: maybe(lot.b2cVehiclePrice),
    b2cTotalPrice: maybe(lot.b2cTotalPrice),
    buyNowSupport: lot.buyNowPrice.gt(0),
    startTime: lot.startTime,
    endTime: lot.endTime,
    duration: lot.duration,
    organizerId: lot.organizerId,
    publisherId: lot.publisherId,
    winnerId: lot.winnerId,
    details: lot.details,
    rulesVersion: lot.rulesVersion,
    reserveMet: reserveMet(lot),
    reserve: maybe(lot.reservePrice),
    lapsedAt: lot.lapsedAt,
    createdAt: lot.createdAt,
    updatedAt: lot.updatedAt,
  };
}

/** The first (or the given) lot of a view, in the view's currency and with its increment table. */
export const viewLotGql = (view: LotsView, lot = view.lots[0]): LotGql => lotGql(lot, view.convert, view.currency, view.increments?.get(lot.id) ?? null);
