import { Keypair } from '@stellar/stellar-sdk';
import { startTestApp, type TestApp } from '../helpers/app';
import { createAccount, createPlatform } from '../helpers/factories';
import { createLot, DIRECT_SALE, ENG_LOT } from '../helpers/lots';
import { DEFAULT_RATES, expectedConversion } from './support';

let t: TestApp;
let platform: Keypair;
let otherPlatform: Keypair;
beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
  otherPlatform = await createPlatform(t);
});
afterAll(() => t.close());

const SET = 'mutation($currency: String!, $rate: String!) { setCurrencyRate(currency: $currency, unitsPerEur: $rate) { currency unitsPerEur asOf } }';
const set = (keypair: Keypair | null, currency: string, rate: string) => (keypair ? t.client.as(keypair) : t.client).graphql(SET, { currency, rate });
const rateOf = async (currency: string) => {
  const res = await t.client.graphql('{ currencyRates { currency unitsPerEur asOf } }');
  return res.body.data.currencyRates.find((r: any) => r.currency === currency);
};

describe('setCurrencyRate', () => {
  it('answers 401 to anonymous callers and 403 not_allowed to users and brokers', async () => {
    const anonymous = await set(null, 'USD', '2');
    expect(anonymous.body.errors[0].extensions).toMatchObject({ code: 'unauthenticated', status: 401 });

    const user = await createAccount(t, platform);
    const broker = await createAccount(t, platform, { type: 'broker' });
    for (const who of [user, broker]) {
      const denied = await set(who.keypair, 'USD', '2');
      expect(denied.body.errors[0].extensions).toMatchObject({ code: 'not_allowed', status: 403 });
    }
    // permission comes before validation
    expect((await set(user.keypair, 'EUR', 'x')).body.errors[0].extensions.code).toBe('not_allowed');
    expect(await rateOf('USD')).toMatchObject({ unitsPerEur: DEFAULT_RATES.USD, asOf: '2026-11-01T00:00:00Z' });
  });

  it('answers 403 not_allowed to the admins and the accounts of every platform', async () => {
    const admin = await createAccount(t, platform, { type: 'admin' });
    const otherAdmin = await createAccount(t, otherPlatform, { type: 'admin' });
    for (const who of [admin.keypair, otherAdmin.keypair, platform, otherPlatform]) {
      const denied = await set(who, 'USD', '0.00108');
      expect(denied.body).toMatchObject({ data: null, errors: [{ extensions: { code: 'not_allowed', status: 403 } }] });
      // permission comes before validation: nothing about the rate is revealed either
      expect((await set(who, 'EUR', 'x')).body.errors[0].extensions.code).toBe('not_allowed');
    }
    expect(await rateOf('USD')).toMatchObject({ unitsPerEur: DEFAULT_RATES.USD, asOf: '2026-11-01T00:00:00Z' });
  });

  it('lets the master account and a signer of it set a rate, as of now', async () => {
    const before = Date.now() - 1000;
    const byMaster = await set(t.master, 'GEL', '3.000');
    expect(byMaster.body).toEqual({ data: { setCurrencyRate: { currency: 'GEL', unitsPerEur: '3', asOf: expect.any(String) } } });
    expect(Date.parse(byMaster.body.data.setCurrencyRate.asOf)).toBeGreaterThanOrEqual(before);

    const signer = Keypair.random();
    expect((await t.client.post('/master/signers', { data: { type: 'signers', id: signer.publicKey() } })).status).toBe(204);
    const bySigner = await set(signer, 'BTC', '0.000016123456');
    expect(bySigner.body.data.setCurrencyRate).toMatchObject({ currency: 'BTC', unitsPerEur: '0.000016123456' });

    expect(await rateOf('GEL')).toEqual(byMaster.body.data.setCurrencyRate);
    expect(await rateOf('BTC')).toMatchObject({ unitsPerEur: '0.000016123456' });
  });

  it('refuses to change EUR (rate_fixed)', async () => {
    const res = await set(t.master, 'EUR', '1.1');
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'rate_fixed', status: 400, errors: [{ field: 'currency' }] });
    expect(await rateOf('EUR')).toMatchObject({ unitsPerEur: '1' });
  });

  it.each([
    ['an unknown currency', 'XYZ', '2', ['currency']],
    ['a lowercase currency', 'usd', '2', ['currency']],
    ['a zero rate', 'USD', '0', ['unitsPerEur']],
    ['a negative rate', 'USD', '-2', ['unitsPerEur']],
    ['a rate with 13 decimals', 'USD', '1.0000000000001', ['unitsPerEur']],
    ['a rate in exponent notation', 'USD', '1e3', ['unitsPerEur']],
    ['a rate of 19 integer digits', 'USD', '1000000000000000000', ['unitsPerEur']],
    ['both wrong', 'EURO', 'abc', ['currency', 'unitsPerEur']],
  ])('answers 400 invalid_field for %s', async (_name, currency, rate, fields) => {
    const res = await set(t.master, currency, rate);
    expect(res.body.errors[0].extensions).toMatchObject({ code: 'invalid_field', status: 400 });
    expect(res.body.errors[0].extensions.errors.map((e: any) => e.field)).toEqual(fields);
  });
});

describe('the effect of a rate', () => {
  it('changes GET /convert, POST /convert and prices of GET /lots/{id}?currency', async () => {
    const euroLot = await createLot(t, platform, DIRECT_SALE);
    const dollarLot = await createLot(t, platform, ENG_LOT);

    expect((await t.client.get(`/lots/${euroLot.id}?currency=USD`)).body.data.attributes.buy_now_price).toBe(expectedConversion('12000', 'EUR', 'USD'));

    expect((await set(t.master, 'USD', '2')).body.data.setCurrencyRate).toMatchObject({ currency: 'USD', unitsPerEur: '2' });
    const rates = { ...DEFAULT_RATES, USD: '2', GEL: '2.01' };
    expect((await set(t.master, 'GEL', '2.01')).body.data.setCurrencyRate).toMatchObject({ currency: 'GEL', unitsPerEur: '2.01' });

    const get = await t.client.get('/convert?from=USD&to=EUR&amount=110.5');
    expect(get.body.data.attributes).toEqual({ amount: expectedConversion('110.5', 'USD', 'EUR', rates), currency: 'EUR' });
    expect(get.body.data.attributes.amount).toBe('55.25');

    // 1.00 USD = 0.50 EUR = 1.005 GEL exactly: half-up gives 1.01
    expect(expectedConversion('1', 'USD', 'GEL', rates)).toBe('1.01');
    const boundary = await t.client.get('/convert?from=USD&to=GEL&amount=1');
    expect(boundary.body.data.attributes.amount).toBe('1.01');

    const posted = await t.client.post('/convert', { data: [{ attributes: { from: 'EUR', to: 'USD', amount: 3.33 } }, { attributes: { from: 'GEL', to: 'USD', amount: 2.01 } }] });
    expect(posted.body.data.map((d: any) => d.attributes.amount)).toEqual([expectedConversion('3.33', 'EUR', 'USD', rates), '2.00']);

    const euroInDollars = await t.client.get(`/lots/${euroLot.id}?currency=USD`);
    expect(euroInDollars.body.data.attributes).toMatchObject({ currency: 'USD', buy_now_price: expectedConversion('12000', 'EUR', 'USD', rates) });
    expect(euroInDollars.body.data.attributes.buy_now_price).toBe('24000.00');

    const dollarsInLari = await t.client.get(`/lots/${dollarLot.id}?currency=GEL`);
    expect(dollarsInLari.body.data.attributes).toMatchObject({
      currency: 'GEL',
      start_price: expectedConversion('1000', 'USD', 'GEL', rates),
      buy_now_price: expectedConversion('5000', 'USD', 'GEL', rates),
      deposit: expectedConversion('100', 'USD', 'GEL', rates),
      min_step: expectedConversion('50', 'USD', 'GEL', rates),
    });
    // a lot shown in its own currency is not converted
    expect((await t.client.get(`/lots/${dollarLot.id}`)).body.data.attributes).toMatchObject({ currency: 'USD', start_price: '1000.00' });
  });
});
