import type { Caller } from '../../core/context';
import { formatMoney, type Money } from '../../core/money';
import { seesReservePrice } from '../../core/policies';
import { converterOf, shownPrice, type Converter } from '../currency';
import { reserveMet } from './lots.reserve';
import type { ShownSteps } from './lots.terms';
import { LOT_STATE_NAMES, LOT_TYPE_NAMES, shownHighestBid, type ListedLot, type LotState, type LotType } from './lots.entity';
import { lotStatus, type LotStatus } from './lots.open';

/**
 * A lot as its caller may see it, prices in the shown currency: what REST and GraphQL both show,
 * each under its own names. The reserve amount is there for the lot's managers only.
 */
export interface LotView {
  id: string;
  lotType: LotType;
  lotTypeStr: string;
  lotState: LotState;
  lotStateStr: string;
  currency: string;
  startPrice: string;
  buyNowPrice: string;
  deposit: string;
  /** Its increment table's band's steps when it has one. */
  minStep: string;
  maxStep: string;
  highestBid: string;
  b2bVehiclePrice: string | null;
  b2cVehiclePrice: string | null;
  b2cTotalPrice: string | null;
  buyNowSupport: boolean;
  startTime: Date;
  endTime: Date;
  duration: number;
  organizerId: string;
  publisherId: string;
  winnerId: string | null;
  details: Record<string, unknown>;
  rulesVersion: number | null;
  /** Null for a lot without a reserve; everyone sees it. */
  reserveMet: boolean | null;
  /** The reserve amount, to the lot's managers; null to anyone else, or without a reserve. */
  reservePrice: string | null;
  lapsedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** Where the lot stands when the view was made. */
  status: LotStatus;
  /** The amounts in the lot's own currency, whatever `currency` the prices above are shown in. */
  amounts: LotAmounts;
}

/**
 * A lot's amounts in its own currency, formatted to the cent: what does not change with the
 * currency a client reads prices in (GraphQL's Money values convert by field). The reserve is
 * redacted as the view's `reservePrice` is; `highestBid` is null until the first accepted bid.
 */
export interface LotAmounts {
  currency: string;
  startPrice: string;
  buyNowPrice: string;
  deposit: string;
  minStep: string;
  maxStep: string;
  highestBid: string | null;
  b2bVehiclePrice: string | null;
  b2cVehiclePrice: string | null;
  b2cTotalPrice: string | null;
  reservePrice: string | null;
}

/** How a view shows prices: in `currency` (the lot's own when absent), with the steps of its increment table's band. */
export interface Shown {
  convert: Converter;
  currency?: string;
  steps?: ShownSteps | null;
}

/** Prices in each lot's own currency, which needs no rate. */
export const OWN_CURRENCY: Shown = { convert: converterOf(new Map()) };

export function lotView(caller: Caller | null, lot: ListedLot, shown: Shown): LotView {
  const currency = shown.currency ?? lot.currency;
  const price = (v: Money) => shownPrice(shown.convert, v, lot.currency, currency);
  const maybe = (v: Money | null) => (v === null ? null : price(v));
  const steps = shown.steps ?? lot;
  const seesReserve = seesReservePrice(caller, lot);
  const startPrice = price(lot.startPrice);
  const buyNowPrice = price(lot.buyNowPrice);
  const deposit = price(lot.deposit);
  const minStep = price(steps.minStep);
  const maxStep = price(steps.maxStep);
  const highestBid = price(shownHighestBid(lot));
  const b2bVehiclePrice = maybe(lot.b2bVehiclePrice);
  const b2cVehiclePrice = maybe(lot.b2cVehiclePrice);
  const b2cTotalPrice = maybe(lot.b2cTotalPrice);
  const reservePrice = seesReserve ? maybe(lot.reservePrice) : null;
  // Shown in its own currency (the usual case), the amounts are the shown prices themselves.
  const amounts: LotAmounts =
    currency === lot.currency
      ? { currency, startPrice, buyNowPrice, deposit, minStep, maxStep, highestBid: lot.highestBid === null ? null : highestBid, b2bVehiclePrice, b2cVehiclePrice, b2cTotalPrice, reservePrice }
      : ownAmounts(lot, steps, seesReserve);
  return {
    id: lot.id,
    lotType: lot.lotType,
    lotTypeStr: `lot_type_${LOT_TYPE_NAMES[lot.lotType]}`,
    lotState: lot.lotState,
    lotStateStr: `lot_state_${LOT_STATE_NAMES[lot.lotState]}`,
    currency,
    startPrice,
    buyNowPrice,
    deposit,
    minStep,
    maxStep,
    highestBid,
    b2bVehiclePrice,
    b2cVehiclePrice,
    b2cTotalPrice,
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
    reservePrice,
    lapsedAt: lot.lapsedAt,
    createdAt: lot.createdAt,
    updatedAt: lot.updatedAt,
    status: lotStatus(lot, new Date()),
    amounts,
  };
}

function ownAmounts(lot: ListedLot, steps: { minStep: Money; maxStep: Money }, seesReserve: boolean): LotAmounts {
  const maybe = (v: Money | null) => (v === null ? null : formatMoney(v));
  return {
    currency: lot.currency,
    startPrice: formatMoney(lot.startPrice),
    buyNowPrice: formatMoney(lot.buyNowPrice),
    deposit: formatMoney(lot.deposit),
    minStep: formatMoney(steps.minStep),
    maxStep: formatMoney(steps.maxStep),
    highestBid: maybe(lot.highestBid),
    b2bVehiclePrice: maybe(lot.b2bVehiclePrice),
    b2cVehiclePrice: maybe(lot.b2cVehiclePrice),
    b2cTotalPrice: maybe(lot.b2cTotalPrice),
    reservePrice: seesReserve ? maybe(lot.reservePrice) : null,
  };
}
