import type { Keypair } from '@stellar/stellar-sdk';
import Decimal from 'decimal.js';
import type { Currency } from '../../src/modules/currency/currency.input';
import { startTestApp, type TestApp } from '../helpers/app';
import { createPlatform } from '../helpers/factories';
import { createLot, ENG_LOT } from '../helpers/lots';

let t: TestApp;
let platform: Keypair;
const names = new Map<string, string>();

beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
  // At the shipped rates (USD 1.08, GEL 2.93 per EUR): A 925.93 EUR, B 1023.89 EUR.
  names.set((await createLot(t, platform, { ...ENG_LOT, currency: 'USD', start_price: '1000' })).id, 'A');
  names.set((await createLot(t, platform, { ...ENG_LOT, currency: 'GEL', start_price: '3000' })).id, 'B');
});
afterAll(() => t.close());

const SET = 'mutation($currency: String!, $rate: String!) { setCurrencyRate(currency: $currency, unitsPerEur: $rate) { currency } }';

async function list(query: string): Promise<string> {
  const res = await t.client.get(`/lots?filter[in]=${[...names.keys()].join(',')}&${query}`);
  expect(res.status).toBe(200);
  return res.body.data.map((l: { id: string }) => names.get(l.id)).join('');
}

describe('the stored price of a lot when a rate changes', () => {
  it('sorts and filters by the new rate from the transaction that set it on', async () => {
    expect(await list('sort=price')).toBe('AB');
    expect(await list('sort=-price')).toBe('BA');

    const res = await t.client.as(t.master).graphql(SET, { currency: 'GEL', rate: '4' });
    expect(res.body.errors).toBeUndefined();
    // B is now 750.00 EUR; A shows 3703.70 GEL, B its own 3000.00.
    expect(await list('sort=price')).toBe('BA');
    expect(await list('filter[currency]=GEL&filter[price]=3000,3000')).toBe('B');
    expect(await list('filter[currency]=GEL&filter[price]=3703.70,3703.70')).toBe('A');
    expect(await list('filter[currency]=GEL&filter[price]=3703.71,')).toBe('');
  });

  it('follows the rates source too', async () => {
    const doc = { asOf: new Date(), rates: new Map<Currency, Decimal>([['GEL', new Decimal('0.5')]]) };
    expect(await t.app.services.currency.applyRates(t.orm.em.fork(), doc)).toBe(1);
    // B is now 6000.00 EUR, its buy-now price 10000.00 EUR against A's 4629.63.
    expect(await list('sort=price')).toBe('AB');
    expect(await list('sort=-buy_now_price')).toBe('BA');
  });
});
