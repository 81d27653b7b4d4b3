import { Keypair } from '@stellar/stellar-sdk';
import Decimal from 'decimal.js';
import { startTestApp, type TestApp } from '../helpers/app';
import { DEFAULT_RATES, expectedConversion } from './support';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const convert = (query: string) => t.client.get(`/convert?${query}`);
const bulk = (data: unknown) => t.client.post('/convert', { data });
const faults = (res: { body: any }) => res.body.errors.map((e: any) => ({ code: e.code, ...e.source }));

describe('GET /convert', () => {
  it('converts through EUR and answers a converted_currency resource', async () => {
    const res = await convert('from=USD&to=EUR&amount=110.5');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.api\+json/);
    expect(expectedConversion('110.5', 'USD', 'EUR')).toBe('102.31');
    expect(res.body).toEqual({ data: { type: 'converted_currency', id: 'USD-EUR-110.50', attributes: { amount: '102.31', currency: 'EUR' } } });
  });

  it.each([
    ['USD', 'GEL', '1234.56'],
    ['GEL', 'UAH', '99.99'],
    ['UAH', 'BTC', '1000000'],
    ['BTC', 'USD', '0.01'],
    ['EUR', 'USD', '0'],
    ['BTC', 'UAH', '999999999999999999.99'],
  ])('converts %s to %s (%s) as computed in decimal', async (from, to, amount) => {
    const res = await convert(`from=${from}&to=${to}&amount=${amount}`);
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toEqual({ amount: expectedConversion(amount, from, to), currency: to });
  });

  it.each([
    // exactly at .xx5: half-up, neither half-even (1.46) nor float arithmetic (33.67)
    ['EUR', 'GEL', '0.50', '1.47'],
    ['USD', 'GEL', '0.54', '1.47'],
    ['USD', 'UAH', '0.81', '33.68'],
    ['UAH', 'GEL', '22.45', '1.47'],
    ['EUR', 'UAH', '0.05', '2.25'],
  ])('rounds %s to %s of %s half-up at the .005 boundary', async (from, to, amount, rounded) => {
    expect(expectedConversion(amount, from, to)).toBe(rounded);
    const res = await convert(`from=${from}&to=${to}&amount=${amount}`);
    expect(res.body.data.attributes.amount).toBe(rounded);
  });

  it('answers the same amount for the same currency, normalised to two decimals', async () => {
    const res = await convert('from=GEL&to=GEL&amount=7');
    expect(res.body.data).toEqual({ type: 'converted_currency', id: 'GEL-GEL-7.00', attributes: { amount: '7.00', currency: 'GEL' } });
  });

  it('is public, but refuses a signature by an unknown key', async () => {
    expect((await t.client.as(Keypair.random()).get('/convert?from=USD&to=EUR&amount=1')).status).toBe(401);
  });

  it.each([
    ['from is missing', 'to=EUR&amount=1', [{ code: 'missing_parameter', parameter: 'from' }]],
    ['to is missing', 'from=EUR&amount=1', [{ code: 'missing_parameter', parameter: 'to' }]],
    ['amount is missing', 'from=EUR&to=USD', [{ code: 'missing_parameter', parameter: 'amount' }]],
    ['from is unsupported', 'from=XYZ&to=EUR&amount=1', [{ code: 'invalid_parameter', parameter: 'from' }]],
    ['to is lowercase', 'from=USD&to=eur&amount=1', [{ code: 'invalid_parameter', parameter: 'to' }]],
    ['amount has three decimals', 'from=USD&to=EUR&amount=1.005', [{ code: 'invalid_parameter', parameter: 'amount' }]],
    ['amount is negative', 'from=USD&to=EUR&amount=-1', [{ code: 'invalid_parameter', parameter: 'amount' }]],
    ['amount is not a number', 'from=USD&to=EUR&amount=ten', [{ code: 'invalid_parameter', parameter: 'amount' }]],
    ['amount is in exponent notation', 'from=USD&to=EUR&amount=1e3', [{ code: 'invalid_parameter', parameter: 'amount' }]],
    ['amount is too large', 'from=USD&to=EUR&amount=1000000000000000000', [{ code: 'invalid_parameter', parameter: 'amount' }]],
    ['from is empty', 'from=&to=EUR&amount=1', [{ code: 'invalid_parameter', parameter: 'from' }]],
    ['a parameter is unknown', 'from=USD&to=EUR&amount=1&round=up', [{ code: 'unknown_parameter', parameter: 'round' }]],
    ['a parameter is repeated', 'from=USD&from=GEL&to=EUR&amount=1', [{ code: 'duplicate_parameter', parameter: 'from' }]],
    [
      'every parameter is wrong',
      'from=usd&to=XXX&amount=1.001',
      [
        { code: 'invalid_parameter', parameter: 'from' },
        { code: 'invalid_parameter', parameter: 'to' },
        { code: 'invalid_parameter', parameter: 'amount' },
      ],
    ],
    [
      'nothing is given',
      '',
      [
        { code: 'missing_parameter', parameter: 'from' },
        { code: 'missing_parameter', parameter: 'to' },
        { code: 'missing_parameter', parameter: 'amount' },
      ],
    ],
  ])('answers 400 when %s', async (_name, query, expected) => {
    const res = await convert(query);
    expect(res.status).toBe(400);
    expect(faults(res)).toEqual(expected);
    expect(res.body.errors.every((e: any) => e.status === '400')).toBe(true);
  });
});

describe('POST /convert', () => {
  it('converts every item and keeps their order', async () => {
    const items: [string, string, number][] = [
      ['USD', 'EUR', 110.5],
      ['EUR', 'GEL', 0.5],
      ['UAH', 'USD', 2500],
      ['BTC', 'BTC', 1.25],
      ['GEL', 'UAH', 0],
      ['USD', 'UAH', 0.81],
    ];
    const res = await bulk(items.map(([from, to, amount], i) => ({ ...(i % 2 ? { type: 'anything' } : {}), attributes: { from, to, amount } })));
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(
      items.map(([from, to, amount]) => {
        const text = String(amount);
        return {
          type: 'converted_currency',
          id: `${from}-${to}-${new Decimal(text).toFixed(2)}`,
          attributes: { amount: expectedConversion(text, from, to), currency: to },
        };
      }),
    );
    expect(res.body.data.map((d: any) => d.attributes.amount)).toEqual(['102.31', '1.47', '60.13', '1.25', '0.00', '33.68']);
  });

  it('accepts exactly 100 items and an empty list', async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => ({ attributes: { from: 'EUR', to: 'USD', amount: i } }));
    const res = await bulk(hundred);
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(100);
    expect(res.body.data[99].attributes).toEqual({ amount: expectedConversion('99', 'EUR', 'USD'), currency: 'USD' });
    expect((await bulk([])).body).toEqual({ data: [] });
  });

  it('answers 400 with one pointer per faulty item member', async () => {
    const res = await bulk([
      { attributes: { from: 'USD', to: 'EUR', amount: 1 } },
      { attributes: { from: 'XYZ', to: 'EUR', amount: 1 } },
      { attributes: { from: 'USD', to: 'EUR', amount: 1.005 } },
      { attributes: { from: 'USD', amount: -3 } },
      { type: 'converted_currency' },
      { attributes: { from: 'USD', to: 'EUR', amount: 'ten' } },
      { attributes: { from: 'USD', to: 'EUR', amount: 0.1 + 0.2 } },
      { attributes: { from: 'USD', to: 'EUR', amount: 1e21 } },
      7,
    ]);
    expect(res.status).toBe(400);
    expect(faults(res)).toEqual([
      { code: 'invalid_field', pointer: '/data/1/attributes/from' },
      { code: 'invalid_field', pointer: '/data/2/attributes/amount' },
      { code: 'missing_field', pointer: '/data/3/attributes/to' },
      { code: 'invalid_field', pointer: '/data/3/attributes/amount' },
      { code: 'missing_field', pointer: '/data/4/attributes' },
      { code: 'invalid_field', pointer: '/data/5/attributes/amount' },
      { code: 'invalid_field', pointer: '/data/6/attributes/amount' },
      { code: 'invalid_field', pointer: '/data/7/attributes/amount' },
      { code: 'invalid_field', pointer: '/data/8/attributes' },
    ]);
  });

  it('refuses a JSON number it cannot read exactly (over 15 digits) and -0, naming the amount; as strings the same amounts convert exactly', async () => {
    const raw = Buffer.from('{"data":[{"attributes":{"from":"EUR","to":"EUR","amount":123456789012345678}},{"attributes":{"from":"EUR","to":"EUR","amount":1234567890123456.7}},{"attributes":{"from":"EUR","to":"EUR","amount":-0}},{"attributes":{"from":"EUR","to":"EUR","amount":999999999999999}}]}');
    const res = await t.client.post('/convert', undefined, { raw });
    expect(res.status).toBe(400);
    expect(faults(res)).toEqual([
      { code: 'invalid_field', pointer: '/data/0/attributes/amount' },
      { code: 'invalid_field', pointer: '/data/1/attributes/amount' },
      { code: 'invalid_field', pointer: '/data/2/attributes/amount' },
    ]);
    expect(res.body.errors[0].detail).toContain('send larger amounts as strings');
    const exact = await bulk([{ attributes: { from: 'EUR', to: 'EUR', amount: '123456789012345678' } }, { attributes: { from: 'EUR', to: 'EUR', amount: 999999999999999 } }]);
    expect(exact.body.data.map((d: any) => d.attributes.amount)).toEqual(['123456789012345678.00', '999999999999999.00']);
  });

  it('answers 400 for more than 100 items', async () => {
    const res = await bulk(Array.from({ length: 101 }, () => ({ attributes: { from: 'EUR', to: 'USD', amount: 1 } })));
    expect(res.status).toBe(400);
    expect(faults(res)).toEqual([{ code: 'too_many_items', pointer: '/data' }]);
  });

  it.each([
    ['no body', undefined, { code: 'missing_body', pointer: '' }],
    ['no data', { meta: {} }, { code: 'missing_field', pointer: '/data' }],
    ['data that is one resource', { data: { attributes: { from: 'USD', to: 'EUR', amount: 1 } } }, { code: 'invalid_field', pointer: '/data' }],
  ])('answers 400 for %s', async (_name, body, expected) => {
    const res = await t.client.post('/convert', body);
    expect(res.status).toBe(400);
    expect(faults(res)).toEqual([expected]);
  });
});

describe('GraphQL', () => {
  it('converts one amount, several, and lists the rates', async () => {
    const one = await t.client.graphql('{ convert(from: "USD", to: "UAH", amount: "0.81") { id amount currency } }');
    expect(one.body).toEqual({ data: { convert: { id: 'USD-UAH-0.81', amount: '33.68', currency: 'UAH' } } });

    const many = await t.client.graphql('query($items: [ConvertInput!]!) { convertMany(items: $items) { id amount currency } }', {
      items: [
        { from: 'EUR', to: 'GEL', amount: '1.5' },
        { from: 'GEL', to: 'EUR', amount: '100' },
      ],
    });
    expect(many.body).toEqual({
      data: {
        convertMany: [
          { id: 'EUR-GEL-1.50', amount: expectedConversion('1.5', 'EUR', 'GEL'), currency: 'GEL' },
          { id: 'GEL-EUR-100.00', amount: expectedConversion('100', 'GEL', 'EUR'), currency: 'EUR' },
        ],
      },
    });

    const rates = await t.client.graphql('{ currencyRates { currency unitsPerEur asOf } }');
    expect(rates.body.data.currencyRates).toEqual(
      ['BTC', 'EUR', 'GEL', 'UAH', 'USD'].map((currency) => ({ currency, unitsPerEur: DEFAULT_RATES[currency], asOf: '2026-11-01T00:00:00Z' })),
    );
  });

  it('answers the REST errors with extensions.code, status and the field at fault', async () => {
    const one = await t.client.graphql('{ convert(from: "USD", to: "XYZ", amount: "1.001") { amount } }');
    expect(one.body.errors[0].extensions).toMatchObject({
      code: 'invalid_parameter',
      status: 400,
      errors: [
        { code: 'invalid_parameter', field: 'to' },
        { code: 'invalid_parameter', field: 'amount' },
      ],
    });

    const many = await t.client.graphql('query($items: [ConvertInput!]!) { convertMany(items: $items) { amount } }', {
      items: [
        { from: 'USD', to: 'EUR', amount: '1' },
        { from: 'USD', to: 'EUR', amount: '-1' },
      ],
    });
    expect(many.body.errors[0].extensions).toMatchObject({ code: 'invalid_field', status: 400, errors: [{ field: 'items.1.amount' }] });

    const tooMany = await t.client.graphql('query($items: [ConvertInput!]!) { convertMany(items: $items) { amount } }', {
      items: Array.from({ length: 101 }, () => ({ from: 'USD', to: 'EUR', amount: '1' })),
    });
    expect(tooMany.body.errors[0].extensions).toMatchObject({ code: 'too_many_items', status: 400, errors: [{ field: 'items' }] });
  });
});
