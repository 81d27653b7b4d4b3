import { Money } from '../../core/money';
import { timestamp, type Rows } from '../../db/raw';
import { sql } from '../../db/sql';
import type { ListedLot, LotState, LotType } from './lots.entity';

/** The columns of a listed lot, as `lotsOfRows` reads them (a third of a row's values were the filters' copies). */
export const LOT_COLUMNS = sql`l.id, l.lot_type, l.lot_state, l.currency, l.start_price, l.buy_now_price, l.deposit, l.min_step, l.max_step,
  l.highest_bid, l.b2b_vehicle_price, l.b2c_vehicle_price, l.b2c_total_price, l.start_time, l.duration, l.end_time, l.organizer_id,
  l.publisher_id, l.winner_id, l.details, l.rules_version, l.extensions, l.extended_seconds, l.reserve_price, l.lapsed_at, l.created_at, l.updated_at`;

/** A row of `LOT_COLUMNS` as the driver answers it: numerics and bigints as text, timestamps as PostgreSQL's text. */
interface LotRow {
  id: string;
  lot_type: LotType;
  lot_state: LotState;
  currency: string;
  start_price: string;
  buy_now_price: string;
  deposit: string;
  min_step: string;
  max_step: string;
  highest_bid: string | null;
  b2b_vehicle_price: string | null;
  b2c_vehicle_price: string | null;
  b2c_total_price: string | null;
  start_time: string;
  duration: number;
  end_time: string;
  organizer_id: string;
  publisher_id: string;
  winner_id: string | null;
  details: Record<string, unknown>;
  rules_version: number | null;
  extensions: number;
  extended_seconds: number;
  reserve_price: string | null;
  lapsed_at: string | null;
  created_at: string;
  updated_at: string;
}

const money = (v: string | null) => (v === null ? null : new Money(v));

/**
 * Lots from the driver's rows of `LOT_COLUMNS`, typed as the ORM would map them but never managed by it: a page is
 * read-only, and the unit of work's hydration and identity map cost more than the statement.
 */
export function lotsOfRows(rows: Rows): ListedLot[] {
  return (rows as unknown as LotRow[]).map((r) => ({
    id: r.id,
    lotType: r.lot_type,
    lotState: r.lot_state,
    currency: r.currency,
    startPrice: new Money(r.start_price),
    buyNowPrice: new Money(r.buy_now_price),
    deposit: new Money(r.deposit),
    minStep: new Money(r.min_step),
    maxStep: new Money(r.max_step),
    highestBid: money(r.highest_bid),
    b2bVehiclePrice: money(r.b2b_vehicle_price),
    b2cVehiclePrice: money(r.b2c_vehicle_price),
    b2cTotalPrice: money(r.b2c_total_price),
    startTime: new Date(r.start_time),
    duration: r.duration,
    endTime: new Date(r.end_time),
    organizerId: r.organizer_id,
    publisherId: r.publisher_id,
    winnerId: r.winner_id,
    details: r.details,
    rulesVersion: r.rules_version,
    extensions: r.extensions,
    extendedSeconds: r.extended_seconds,
    reservePrice: money(r.reserve_price),
    lapsedAt: timestamp(r.lapsed_at),
    createdAt: new Date(r.created_at),
    updatedAt: new Date(r.updated_at),
  }));
}
