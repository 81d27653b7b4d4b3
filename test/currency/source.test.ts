import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { ConfigError, loadConfig } from '../../src/config';
import { logger } from '../../src/core/logger';
import { refreshRates } from '../../src/modules/currency/currency.refresh';
import { parseRatesDocument, RatesDocumentError } from '../../src/modules/currency/currency.source';
import { startTestApp, type TestApp } from '../helpers/app';
import { DEFAULT_RATES, expectedConversion } from './support';

/** A rates source double on 127.0.0.1: answers `reply` and records each request. */
class RatesSource {
  reply: { status: number; body: string } = { status: 200, body: '{}' };
  readonly requests: IncomingMessage[] = [];
  private server: Server = createServer((req, res) => {
    this.requests.push(req);
    res.writeHead(this.reply.status, { 'content-type': 'application/json' });
    res.end(this.reply.body);
  });
  url = '';

  serve(status: number, body: unknown) {
    this.reply = { status, body: typeof body === 'string' ? body : JSON.stringify(body) };
  }
  async start() {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/rates.json?key=secret`;
  }
  stop() {
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const RATES_QUERY = '{ currencyRates { currency unitsPerEur asOf } }';
async function ratesOf(t: TestApp): Promise<Record<string, { unitsPerEur: string; asOf: string }>> {
  const res = await t.client.graphql(RATES_QUERY);
  return Object.fromEntries(res.body.data.currencyRates.map((r: any) => [r.currency, { unitsPerEur: r.unitsPerEur, asOf: r.asOf }]));
}
const defaults = () => Object.fromEntries(Object.entries(DEFAULT_RATES).map(([c, unitsPerEur]) => [c, { unitsPerEur, asOf: '2026-11-01T00:00:00Z' }]));
const dayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

let source: RatesSource;
beforeEach(async () => {
  source = new RatesSource();
  await source.start();
});
afterEach(async () => {
  jest.restoreAllMocks();
  await source.stop();
});

describe('the rates source at start', () => {
  it('fetches RATES_URL and stores the supported rates it carries, ignoring the others', async () => {
    source.serve(200, { base: 'EUR', date: '2026-11-20', rates: { USD: 1.1, GEL: '2.95', XYZ: 7, EUR: 1.5, JPY: 'n/a' } });
    const t = await startTestApp({ RATES_URL: source.url });
    try {
      expect(source.requests).toHaveLength(1);
      expect(source.requests[0].url).toBe('/rates.json?key=secret');
      expect(source.requests[0].headers.accept).toBe('application/json');
      expect(await ratesOf(t)).toEqual({
        ...defaults(),
        USD: { unitsPerEur: '1.1', asOf: '2026-11-20T00:00:00Z' },
        GEL: { unitsPerEur: '2.95', asOf: '2026-11-20T00:00:00Z' },
      });
      const rates = { ...DEFAULT_RATES, USD: '1.1', GEL: '2.95' };
      const res = await t.client.get('/convert?from=USD&to=GEL&amount=110.5');
      expect(res.body.data.attributes).toEqual({ amount: expectedConversion('110.5', 'USD', 'GEL', rates), currency: 'GEL' });
    } finally {
      await t.close();
    }
  });

  it('keeps the current rates and warns when the source answers 500', async () => {
    source.serve(500, { error: 'down' });
    const warn = jest.spyOn(logger, 'warn');
    const t = await startTestApp({ RATES_URL: source.url });
    try {
      expect(source.requests).toHaveLength(1);
      expect(await ratesOf(t)).toEqual(defaults());
      expect((await t.client.get('/convert?from=USD&to=EUR&amount=110.5')).body.data.attributes.amount).toBe('102.31');
      expect(warn).toHaveBeenCalledWith(expect.objectContaining({ source: new URL(source.url).origin }), 'fetching currency rates failed; keeping the current rates');
      // the log names the origin only: the path and query may carry an access key
      expect(JSON.stringify(warn.mock.calls)).not.toContain('secret');
    } finally {
      await t.close();
    }
  });
});

describe('refreshing from the source', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());
  const refresh = () => refreshRates(t.orm, t.app.services.currency, source.url, logger);

  it.each([
    ['is not JSON', 200, 'rates: many'],
    ['has a negative rate of a supported currency', 200, { base: 'EUR', date: '2026-11-21', rates: { USD: -1.1, GEL: 3 } }],
    ['has another base', 200, { base: 'USD', date: '2026-11-21', rates: { GEL: 3 } }],
    ['has no supported currency', 200, { base: 'EUR', date: '2026-11-21', rates: { JPY: 160 } }],
    ['answers 404', 404, { base: 'EUR', date: '2026-11-21', rates: { USD: 1.2 } }],
  ])('keeps the rates when the source %s', async (_name, status, body) => {
    const before = await ratesOf(t);
    source.serve(status, body);
    const warn = jest.spyOn(logger, 'warn');
    await refresh();
    expect(source.requests).toHaveLength(1);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(await ratesOf(t)).toEqual(before);
  });

  it('keeps the rates when the source cannot be reached', async () => {
    const before = await ratesOf(t);
    await source.stop();
    const warn = jest.spyOn(logger, 'warn');
    await refresh();
    expect(warn).toHaveBeenCalledWith(expect.objectContaining({ reason: expect.stringContaining('fetch failed') }), 'fetching currency rates failed; keeping the current rates');
    expect(await ratesOf(t)).toEqual(before);
  });

  it('keeps a rate set by the master account since the date of the document, and takes a newer one', async () => {
    const set = await t.client
      .as(t.master)
      .graphql('mutation { setCurrencyRate(currency: "UAH", unitsPerEur: "50") { unitsPerEur } }');
    expect(set.body.data.setCurrencyRate.unitsPerEur).toBe('50');

    const yesterday = dayOffset(-1);
    source.serve(200, { base: 'EUR', date: yesterday, rates: { UAH: 46, BTC: 0.0000172 } });
    await refresh();
    let rates = await ratesOf(t);
    expect(rates.UAH.unitsPerEur).toBe('50');
    expect(rates.BTC).toEqual({ unitsPerEur: '0.0000172', asOf: `${yesterday}T00:00:00Z` });

    const tomorrow = dayOffset(1);
    source.serve(200, { base: 'EUR', date: tomorrow, rates: { UAH: 46.1234567890125 } });
    await refresh();
    rates = await ratesOf(t);
    expect(rates.UAH).toEqual({ unitsPerEur: '46.123456789013', asOf: `${tomorrow}T00:00:00Z` });
  });

  it('writes nothing while another session holds the refresh lock', async () => {
    source.serve(200, { base: 'EUR', date: dayOffset(2), rates: { GEL: 3.33 } });
    const other = new Client({ connectionString: t.config.DATABASE_URL });
    await other.connect();
    try {
      await other.query('select pg_advisory_lock($1)', [0x63757272]);
      await refresh();
      const held = await ratesOf(t);
      await other.query('select pg_advisory_unlock($1)', [0x63757272]);
      expect(held.GEL.unitsPerEur).not.toBe('3.33');
      await refresh();
      expect((await ratesOf(t)).GEL.unitsPerEur).toBe('3.33');
    } finally {
      await other.end();
    }
  });
});

describe('parseRatesDocument', () => {
  const at = new Date('2026-11-22T10:00:00Z');

  it('reads rates as decimals, the date as midnight UTC, and the fetch time without a date', () => {
    const doc = parseRatesDocument({ base: 'EUR', date: '2026-11-20', rates: { USD: 1.0812, BTC: '0.00001551', CHF: 0.94 } }, at);
    expect(doc.asOf.toISOString()).toBe('2026-11-20T00:00:00.000Z');
    expect([...doc.rates].map(([c, r]) => [c, r.toFixed()])).toEqual([
      ['USD', '1.0812'],
      ['BTC', '0.00001551'],
    ]);
    expect(parseRatesDocument({ rates: { GEL: 3 } }, at).asOf).toEqual(at);
    expect(parseRatesDocument({ date: '2026-11-21T12:30:00Z', rates: { GEL: 3 } }, at).asOf.toISOString()).toBe('2026-11-21T12:30:00.000Z');
  });

  it.each([
    ['a date that does not exist', { date: '2026-02-30', rates: { USD: 1 } }],
    ['a date in another format', { date: '20.11.2026', rates: { USD: 1 } }],
    ['another base', { base: 'USD', rates: { GEL: 2.7 } }],
    ['rates that are a list', { rates: [1.08] }],
    ['a zero rate', { rates: { USD: 0 } }],
    ['a rate rounding to zero', { rates: { BTC: 0.0000000000001 } }],
    ['a rate that is a word', { rates: { USD: 'high' } }],
    ['no supported currency', { rates: { CHF: 0.94 } }],
    ['no object at all', null],
  ])('refuses %s', (_name, json) => {
    expect(() => parseRatesDocument(json, at)).toThrow(RatesDocumentError);
  });
});

describe('configuration', () => {
  it('polls every 600 seconds by default and accepts http(s) URLs', () => {
    expect(loadConfig({}).RATES_POLL_SECONDS).toBe(600);
    expect(loadConfig({}).RATES_URL).toBeUndefined();
    expect(loadConfig({ RATES_URL: 'https://rates.example/eur.json', RATES_POLL_SECONDS: '60' })).toMatchObject({ RATES_URL: 'https://rates.example/eur.json', RATES_POLL_SECONDS: 60 });
  });

  it.each([
    ['RATES_URL', 'ftp://rates.example/eur.json'],
    ['RATES_URL', 'not a url'],
    ['RATES_POLL_SECONDS', '0'],
    ['RATES_POLL_SECONDS', '1.5'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(name);
  });
});
