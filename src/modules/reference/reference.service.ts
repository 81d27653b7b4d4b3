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

/** The lists of plain entries, by the names REST gives their resources; an entry's id is unique within its list only. */
const ENTRY_LISTS = { wheel_positions: wheels as EnumEntry[], transmission_types: transmissions as EnumEntry[] } as const;
export type EntryList = keyof typeof ENTRY_LISTS;
/** An entry with the list it belongs to, which its global id names. */
export type ListedEntry = EnumEntry & { list: EntryList };
const listed = (list: EntryList): ListedEntry[] => ENTRY_LISTS[list].map((e) => ({ ...e, list }));

/** The ids of /enums/fuels, each to the lowercase value that details and filters use (GASOLINE is gas). */
export const FUEL_IDS: Readonly<Record<string, string>> = Object.fromEntries((fuels as FuelType[]).map((f) => [f.id, f.value]));

const perParent = (children: number, parents: number) => Math.ceil(children / parents);
const classes = (makers as Maker[]).flatMap((m) => m.classes);

/**
 * The items each reference list answers, as the GraphQL cost counts them (`listItems`): a list
 * of the root its length, a nested one its items per parent rounded up. The lists are answered
 * whole, so these count at least their real size (78 makers × 13 classes × 3 models ≥ their 2,007
 * models) where the largest maker's 33 classes at every maker would count 11 times too many.
 */
export const REFERENCE_ITEMS = {
  makers: makers.length,
  classes: perParent(classes.length, makers.length),
  models: perParent(
    classes.reduce((n, c) => n + c.models.length, 0),
    classes.length,
  ),
  countries: countries.length,
  cities: perParent(
    (countries as Country[]).reduce((n, c) => n + (c.cities?.length ?? 0), 0),
    countries.length,
  ),
  fuels: fuels.length,
  wheels: wheels.length,
  transmissions: transmissions.length,
} as const;

/**
 * The reference lists (makers, countries, fuels, wheel positions, transmissions). They are
 * static data shipped with the service, so reading them needs no request context.
 */
export class ReferenceService {
  private readonly countryCodes = new Set((countries as Country[]).map((c) => c.code));
  private readonly fuelValues = new Map((fuels as FuelType[]).map((f) => [f.value, f]));
  private readonly transmissionIds = new Set((transmissions as EnumEntry[]).map((t) => t.id));
  private readonly fuelsById = new Map((fuels as FuelType[]).map((f) => [f.id, f]));
  private readonly entries = { wheel_positions: listed('wheel_positions'), transmission_types: listed('transmission_types') };

  makers(): Maker[] {
    return makers;
  }

  countries(): Country[] {
    return countries as Country[];
  }

  fuels(): FuelType[] {
    return fuels;
  }

  wheels(): ListedEntry[] {
    return this.entries.wheel_positions;
  }

  transmissions(): ListedEntry[] {
    return this.entries.transmission_types;
  }

  /** The fuel type of an id, null for none. */
  fuel(id: string): FuelType | null {
    return this.fuelsById.get(id) ?? null;
  }

  /** The entry of a list by its id, null when the list has none (or there is no such list). */
  entry(list: string, id: string): ListedEntry | null {
    return Object.hasOwn(this.entries, list) ? (this.entries[list as EntryList].find((e) => e.id === id) ?? null) : null;
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
