import { Money } from '../../core/money';
import { timestamp, type Rows } from '../../db/raw';
import { sql } from '../../db/sql';
import type { ListedLot, LotState, LotType } from './lots.entity';

/** The columns of a listed lot, as `lotsOfRows` reads them (a third of a row's values were the filters' copies). */
export const LOT_COLUMNS = sql`l.id, l.lot_type, l.lot_state, l.currency, l.start_price, l.buy_now_price, l.deposit, l.min_step, l.max_step,
  l.highest_bid, l.b2b_vehicle_price, l.b2c_vehicle_price, l.b2c_total_price, l.start_time, l.duration, l.end_time, l.organizer_id,
  l.publisher_id, l.winner_id, l.details, l.rules_version, l.extensions, l.extended_seconds, l.reserve_price, l.lapsed_at, l.created_at, l.updated_at`;

const money = (v: unknown) => (v === null ? null : new Money(v as string));

/**
 * Lots from the driver's rows, typed as the ORM would map them but never managed by it: a page is
 * read-only, and the unit of work's hydration and identity map cost more than the statement.
 */
export function lotsOfRows(rows: Rows): ListedLot[] {
  return rows.map((r) => ({
    id: r.id as string,
    lotType: r.lot_type as LotType,
    lotState: r.lot_state as LotState,
    currency: r.currency as string,
    startPrice: new Money(r.start_price as string),
    buyNowPrice: new Money(r.buy_now_price as string),
    deposit: new Money(r.deposit as string),
    minStep: new Money(r.min_step as string),
    maxStep: new Money(r.max_step as string),
    highestBid: money(r.highest_bid),
    b2bVehiclePrice: money(r.b2b_vehicle_price),
    b2cVehiclePrice: money(r.b2c_vehicle_price),
    b2cTotalPrice: money(r.b2c_total_price),
    startTime: timestamp(r.start_time) as Date,
    duration: r.duration as number,
    endTime: timestamp(r.end_time) as Date,
    organizerId: r.organizer_id as string,
    publisherId: r.publisher_id as string,
    winnerId: r.winner_id as string | null,
    details: r.details as Record<string, unknown>,
    rulesVersion: r.rules_version as number | null,
    extensions: r.extensions as number,
    extendedSeconds: r.extended_seconds as number,
    reservePrice: money(r.reserve_price),
    lapsedAt: timestamp(r.lapsed_at),
    createdAt: timestamp(r.created_at) as Date,
    updatedAt: timestamp(r.updated_at) as Date,
  }));
}
