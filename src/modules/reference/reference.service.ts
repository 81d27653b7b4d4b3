import countries from './data/countries.json';
import fuels from './data/fuels.json';
import makers from './data/makers.json';
import transmissions from './data/transmissions.json';
import wheels from './data/wheels.json';

export interface ModelClass {
  name: string;
  prefix: string;
  models: string[];
}
export interface Maker {
  name: string;
  classes: ModelClass[];
}
export interface Country {
  name: string;
  code: string;
  cities: string[] | null;
}
export interface FuelType {
  id: string;
  value: string;
  verbose: string;
}
export interface EnumEntry {
  id: string;
  verbose: string;
}

/** The ids of /enums/fuels, each to the lowercase value that details and filters use (GASOLINE is gas). */
export const FUEL_IDS: Readonly<Record<string, string>> = Object.fromEntries((fuels as FuelType[]).map((f) => [f.id, f.value]));

/**
 * The reference lists (makers, countries, fuels, wheel positions, transmissions). They are
 * static data shipped with the service, so reading them needs no request context.
 */
export class ReferenceService {
  private readonly countryCodes = new Set((countries as Country[]).map((c) => c.code));
  private readonly fuelValues = new Map((fuels as FuelType[]).map((f) => [f.value, f]));
  private readonly transmissionIds = new Set((transmissions as EnumEntry[]).map((t) => t.id));

  makers(): Maker[] {
    return makers;
  }

  countries(): Country[] {
    return countries as Country[];
  }

  fuels(): FuelType[] {
    return fuels;
  }

  wheels(): EnumEntry[] {
    return wheels;
  }

  transmissions(): EnumEntry[] {
    return transmissions;
  }

  isCountryCode(code: string): boolean {
    return this.countryCodes.has(code);
  }

  isFuelValue(value: string): boolean {
    return this.fuelValues.has(value.toLowerCase());
  }

  isTransmission(id: string): boolean {
    return this.transmissionIds.has(id.toUpperCase());
  }
}
