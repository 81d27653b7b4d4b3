import { resource, type Resource } from '../../rest/document';
import type { Country, EnumEntry, FuelType, Maker } from './reference.service';

export const presentMaker = (m: Maker): Resource => resource('makers', m.name, { classes: m.classes });
export const presentCountry = (c: Country): Resource => resource('countries', c.name, { cities: c.cities, code: c.code });
export const presentFuel = (f: FuelType): Resource => resource('fuel_types', f.id, { verbose: f.verbose, value: f.value });
export const presentEnum = (type: 'wheel_positions' | 'transmission_types') => (e: EnumEntry): Resource => resource(type, e.id, { verbose: e.verbose });
