import type { Rgb } from './png';

/** A vehicle the demo puts up for sale; maker, model and country must be in the reference lists. */
export interface Vehicle {
  maker: string;
  model: string;
  year: number;
  color: string;
  rgb: Rgb;
  fuel_type: string;
  transmission: string;
  odometer_value: number;
  engine_volume: number;
  country: string;
  notes: string;
  currency: string;
  /** The asking price of a direct sale, or an auction's start price. */
  price: string;
  /** Auctions only; none for a direct sale. */
  auction?: { buy_now_price: string; deposit: string; min_step: string; max_step: string };
}

/** Market prices of 2026 for these vehicles, so that the demo's lots and bids look like real ones. */
export const VEHICLES: Vehicle[] = [
  {
    maker: 'Toyota', model: 'Camry Hybrid', year: 2019, color: 'Silver', rgb: [170, 175, 180], fuel_type: 'hybrid', transmission: 'CVT',
    odometer_value: 68400, engine_volume: 2.5, country: 'GEO', notes: 'One owner, full service history, new tyres.',
    currency: 'USD', price: '9500', auction: { buy_now_price: '14000', deposit: '300', min_step: '100', max_step: '1000' },
  },
  {
    maker: 'BMW', model: '3 Series Touring', year: 2018, color: 'Black', rgb: [35, 35, 40], fuel_type: 'diesel', transmission: 'AUTOMATIC',
    odometer_value: 112000, engine_volume: 2.0, country: 'DEU', notes: '320d xDrive, panoramic roof, towbar.',
    currency: 'EUR', price: '11800', auction: { buy_now_price: '16500', deposit: '500', min_step: '100', max_step: '1500' },
  },
  {
    maker: 'Tesla', model: 'Model 3 Long Range', year: 2021, color: 'White', rgb: [240, 240, 240], fuel_type: 'electric', transmission: 'AUTOMATIC',
    odometer_value: 41200, engine_volume: 0, country: 'USA', notes: 'Dual motor, battery health 94%, autopilot.',
    currency: 'USD', price: '24000', auction: { buy_now_price: '31000', deposit: '1000', min_step: '250', max_step: '2500' },
  },
  {
    maker: 'Volkswagen', model: 'Golf GTI', year: 2017, color: 'Red', rgb: [200, 30, 40], fuel_type: 'gas', transmission: 'DUAL_CLUTCH',
    odometer_value: 89000, engine_volume: 2.0, country: 'POL', notes: 'DSG, adaptive suspension, minor scratch on the rear bumper.',
    currency: 'EUR', price: '13200', auction: { buy_now_price: '17900', deposit: '400', min_step: '100', max_step: '1000' },
  },
  {
    maker: 'Hyundai', model: 'Tucson Hybrid', year: 2022, color: 'Blue', rgb: [30, 70, 150], fuel_type: 'hybrid', transmission: 'AUTOMATIC',
    odometer_value: 30500, engine_volume: 1.6, country: 'UKR', notes: 'All-wheel drive, still under factory warranty.',
    currency: 'USD', price: '21500', auction: { buy_now_price: '27000', deposit: '700', min_step: '200', max_step: '2000' },
  },
  {
    maker: 'Toyota', model: 'Land Cruiser Prado', year: 2015, color: 'Gray', rgb: [110, 110, 115], fuel_type: 'diesel', transmission: 'AUTOMATIC',
    odometer_value: 156000, engine_volume: 2.8, country: 'GEO', notes: 'Seven seats, off-road package, cleared customs.',
    currency: 'USD', price: '28900',
  },
];
