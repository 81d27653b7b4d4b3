import { Extensions, Field, Float, Int, ObjectType } from 'type-graphql';
import { Money } from '../../core/money';
import { listItems } from '../../graphql/list-items';
import { maybeMoney, money, MoneyGql } from '../../graphql/types/money';
import type { LotAmounts } from './lots.view';

@ObjectType('LotPrices', { description: "A lot's amounts in its own currency; each converts with `in(currency:)`" })
export class LotPricesGql {
  @Field(() => MoneyGql) start!: MoneyGql;
  @Field(() => MoneyGql, { nullable: true, description: 'Null when the lot cannot be bought outright' }) buyNow!: MoneyGql | null;
  @Field(() => MoneyGql) deposit!: MoneyGql;
  @Field(() => MoneyGql, { description: 'The least raise over the highest bid, from its increment table when it has one' }) minStep!: MoneyGql;
  @Field(() => MoneyGql) maxStep!: MoneyGql;
  @Field(() => MoneyGql, { nullable: true, description: 'Null until the first accepted bid' }) highestBid!: MoneyGql | null;
  @Field(() => MoneyGql, { nullable: true }) b2bVehicle!: MoneyGql | null;
  @Field(() => MoneyGql, { nullable: true }) b2cVehicle!: MoneyGql | null;
  @Field(() => MoneyGql, { nullable: true }) b2cTotal!: MoneyGql | null;
  @Field(() => MoneyGql, { nullable: true, description: "The hidden reserve, to the lot's organizer and staff of its publisher; null to anyone else, or without a reserve" })
  reserve!: MoneyGql | null;
}

export function lotPricesGql(a: LotAmounts): LotPricesGql {
  const c = a.currency;
  return {
    start: money(a.startPrice, c),
    // A buy-now price of zero is how a lot says it takes none (`buyNowSupport`).
    buyNow: new Money(a.buyNowPrice).gt(0) ? money(a.buyNowPrice, c) : null,
    deposit: money(a.deposit, c),
    minStep: money(a.minStep, c),
    maxStep: money(a.maxStep, c),
    highestBid: maybeMoney(a.highestBid, c),
    b2bVehicle: maybeMoney(a.b2bVehiclePrice, c),
    b2cVehicle: maybeMoney(a.b2cVehiclePrice, c),
    b2cTotal: maybeMoney(a.b2cTotalPrice, c),
    reserve: maybeMoney(a.reservePrice, c),
  };
}

/** The image links a lot's details hold at most (the creation schema's bound). */
const MOST_LINKS = 100;

/** The vehicle a lot sells: its details under GraphQL's names, each typed. */
@ObjectType('VehicleDetails', { description: 'The vehicle a lot sells; a detail the lot was not given is null' })
export class VehicleDetailsGql {
  @Field(() => String, { nullable: true, description: 'ISO 3166-1 alpha-3' }) country!: string | null;
  @Field(() => String, { nullable: true }) city!: string | null;
  @Field(() => Int, { nullable: true }) year!: number | null;
  @Field(() => String, { nullable: true }) maker!: string | null;
  @Field(() => String, { nullable: true }) model!: string | null;
  @Field(() => String, { nullable: true }) name!: string | null;
  @Field(() => String, { nullable: true }) color!: string | null;
  @Field(() => String, { nullable: true }) notes!: string | null;
  @Field(() => String, { nullable: true, description: 'left or right' }) wheel!: string | null;
  @Field(() => String, { nullable: true }) vin!: string | null;
  @Field(() => String, { nullable: true, description: 'A fuel value of the reference list of fuels' }) fuelType!: string | null;
  @Field(() => String, { nullable: true, description: 'A transmission id of the reference list of transmissions' }) transmission!: string | null;
  @Field(() => Boolean, { nullable: true }) registered!: boolean | null;
  @Field(() => Float, { nullable: true, description: 'Litres' }) engineVolume!: number | null;
  @Field(() => Float, { nullable: true }) odometer!: number | null;
  @Field(() => String, { nullable: true }) mileageType!: string | null;
  @Field(() => Boolean, { nullable: true }) priceNegotiable!: boolean | null;
  @Field(() => String, { nullable: true }) bodyStyle!: string | null;
  @Field(() => String, { nullable: true }) documentType!: string | null;
  @Field(() => String, { nullable: true }) driveType!: string | null;
  @Field(() => String, { nullable: true }) engineCylinders!: string | null;
  @Field(() => String, { nullable: true }) primaryDamage!: string | null;
  @Field(() => String, { nullable: true }) secondaryDamage!: string | null;
  @Field(() => String, { nullable: true }) state!: string | null;
  @Field(() => Int, { nullable: true }) retainValue!: number | null;
  @Extensions(listItems(MOST_LINKS))
  @Field(() => [String], { description: 'Links to high-definition images (at most 100)' })
  hdImages!: string[];
  @Extensions(listItems(MOST_LINKS))
  @Field(() => [String], { description: 'Links to full-size images (at most 100)' })
  fullImages!: string[];
  @Field(() => String, { nullable: true }) video!: string | null;
}

// Details were stored as creation and imports gave them: a member of another type than the
// creation schema's (an old row, an import) reads as absent rather than failing the lot.
const text = (v: unknown) => (typeof v === 'string' ? v : null);
const numeric = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^\d+(\.\d+)?$/.test(v) ? Number(v) : null);
const integer = (v: unknown) => {
  const n = numeric(v);
  return n !== null && Number.isSafeInteger(n) ? n : null;
};
const flag = (v: unknown) => (typeof v === 'boolean' ? v : null);
const links = (v: unknown) => (Array.isArray(v) ? v.filter((l): l is string => typeof l === 'string').slice(0, MOST_LINKS) : []);

export function vehicleDetailsGql(d: Readonly<Record<string, unknown>>): VehicleDetailsGql {
  return {
    country: text(d.country),
    city: text(d.city),
    year: integer(d.year),
    maker: text(d.maker),
    model: text(d.model),
    name: text(d.lot_name),
    color: text(d.color),
    notes: text(d.notes),
    wheel: text(d.wheel),
    vin: text(d.vin_code),
    fuelType: text(d.fuel_type),
    transmission: text(d.transmission),
    registered: flag(d.registered),
    engineVolume: numeric(d.engine_volume),
    odometer: numeric(d.odometer_value),
    mileageType: text(d.mileage_type),
    priceNegotiable: flag(d.price_negotiable),
    bodyStyle: text(d.body_style),
    documentType: text(d.document_type),
    driveType: text(d.drive_type),
    engineCylinders: text(d.engine_cylinders),
    primaryDamage: text(d.primary_damage),
    secondaryDamage: text(d.secondary_damage),
    state: text(d.state),
    retainValue: integer(d.retain_value),
    hdImages: links(d.hd_img_links),
    fullImages: links(d.full_img_links),
    video: text(d.video_link),
  };
}
