import { formatMoney, type Money } from '../../core/money';
import type { Converter } from '../currency/currency.service';
import { LOT_STATE_NAMES, LOT_TYPE_NAMES, shownHighestBid, type Lot } from './lots.entity';
import type { LotGql } from './lots.types';

export function lotGql(lot: Lot, convert: Converter, currency = lot.currency): LotGql {
  const price = (v: Money) => formatMoney(convert(v, lot.currency, currency));
  const maybe = (v: Money | null) => (v === null ? null : price(v));
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
    minStep: price(lot.minStep),
    maxStep: price(lot.maxStep),
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
    createdAt: lot.createdAt,
    updatedAt: lot.updatedAt,
  };
}
