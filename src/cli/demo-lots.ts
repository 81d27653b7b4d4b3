import { randomInt } from 'node:crypto';
import { multipartPayload, type Api } from './api';
import { VEHICLES, type Vehicle } from './catalogue';
import { reserveOf } from './demo-rules';
import { carPicture } from './png';
import { expectStatus, many, one, Refused, type Resource } from './resources';

export interface DemoLot {
  id: string;
  vehicle: Vehicle;
}

const DAY = 86400;
const VIN_SYMBOLS = 'ABCDEFGHJKLMNPRSTUVWXYZ0123456789';

/** A random VIN: the demo finds its lots by VIN, since POST /lots answers 204 without the lot. */
const randomVin = () => Array.from({ length: 17 }, () => VIN_SYMBOLS[randomInt(VIN_SYMBOLS.length)]).join('');

interface Reference {
  models: Map<string, Set<string>>;
  cities: Map<string, string>;
}

/** The makers' models and each country's first city, from the service's own reference lists. */
async function reference(api: Api): Promise<Reference> {
  const makers = many(expectStatus(await api.json('GET', '/enums/makers'), 200, 'reading the makers'));
  const countries = many(expectStatus(await api.json('GET', '/enums/countries'), 200, 'reading the countries'));
  const models = new Map(makers.map((m) => [m.id, new Set((m.attributes.classes as { models: string[] }[]).flatMap((c) => c.models))]));
  const cities = new Map(countries.map((c) => [c.attributes.code as string, ((c.attributes.cities as string[] | null) ?? [])[0]]));
  return { models, cities };
}

/** Uploads a photo of the vehicle as a public document; its absolute link goes into the lot. */
async function uploadPhoto(api: Api, vehicle: Vehicle): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([carPicture(vehicle.rgb)], { type: 'image/png' }), `${vehicle.maker}-${vehicle.model}.png`.replace(/\s+/g, '-'));
  form.append('file[attributes]', JSON.stringify({ document_type: 'public' }));
  const document = one(expectStatus(await api.send('POST', '/documents', await multipartPayload(form)), 201, 'uploading a photo'));
  return new URL(document.links?.self as string, api.base).toString();
}

function lotAttributes(vehicle: Vehicle, city: string | undefined, photo: string, vin: string) {
  const { auction } = vehicle;
  const details = {
    country: vehicle.country,
    ...(city ? { city } : {}),
    year: vehicle.year,
    maker: vehicle.maker,
    model: vehicle.model,
    lot_name: `${vehicle.year} ${vehicle.maker} ${vehicle.model}`,
    color: vehicle.color,
    fuel_type: vehicle.fuel_type,
    transmission: vehicle.transmission,
    wheel: 'left',
    odometer_value: vehicle.odometer_value,
    engine_volume: vehicle.engine_volume,
    notes: vehicle.notes,
    vin_code: vin,
    hd_img_links: [photo],
    full_img_links: [photo],
  };
  const prices = auction
    ? { type: 'eng', start_price: vehicle.price, ...auction, ...reserveOf(vehicle), duration: 3 * DAY }
    : { type: 'no_auction', start_price: '0', buy_now_price: vehicle.price, deposit: '0', min_step: '0', max_step: '0', duration: 14 * DAY };
  return { currency: vehicle.currency, ...prices, details };
}

/** Every vehicle of the catalogue as a lot organised by `staff`, each with its photo. */
export async function createLots(staff: Api): Promise<DemoLot[]> {
  const { models, cities } = await reference(staff);
  const lots: DemoLot[] = [];
  for (const vehicle of VEHICLES) {
    if (!models.get(vehicle.maker)?.has(vehicle.model)) throw new Refused(`${vehicle.maker} ${vehicle.model} is not in the service's makers list (GET /enums/makers)`);
    const photo = await uploadPhoto(staff, vehicle);
    const vin = randomVin();
    const attributes = lotAttributes(vehicle, cities.get(vehicle.country), photo, vin);
    expectStatus(await staff.json('POST', '/lots', { data: { type: 'lots', attributes } }), 204, `creating the ${attributes.details.lot_name} lot`);
    const [lot] = many(expectStatus(await staff.json('GET', `/lots?filter[vin]=${vin}`), 200, 'finding the new lot'));
    lots.push({ id: (lot as Resource).id, vehicle });
  }
  return lots;
}
