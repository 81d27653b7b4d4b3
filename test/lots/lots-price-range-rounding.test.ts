import type { Keypair } from '@stellar/stellar-sdk';
import { Client } from 'pg';
import { startTestApp, type TestApp } from '../helpers/app';
import { createPlatform } from '../helpers/factories';

// filter[price] in a converted currency reads bounds on the stored price in EUR (an index range);
// what it lists must stay exactly what the converted price, rounded to the cent as responses show
// it, selects: round(price / rate of the lot's currency * rate of the target, 2) in the range.
let t: TestApp;
let platform: Keypair;
let db: Client;

const CURRENCIES = ['EUR', 'USD', 'GEL', 'UAH'];
const SET_RATE = 'mutation($currency: String!, $rate: String!) { setCurrencyRate(currency: $currency, unitsPerEur: $rate) { currency } }';
const GQL = 'query($f: LotFilter) { lots(filter: $f, sort: { key: price }, first: 100) { nodes { id } } }';

beforeAll(async () => {
  t = await startTestApp();
  platform = await createPlatform(t);
  db = new Client({ connectionString: t.config.DATABASE_URL });
  await db.connect();
  // 96 lots, a price in cents of each currency in turn; EUR prices in odd multiples of 8 cents land on
  // exact half cents in USD at 1.0625 (set below), the rest on whatever the rates give.
  await db.query(
    `insert into lots (lot_type, currency, start_price, buy_now_price, deposit, min_step, max_step, start_time, duration, end_time, organizer_id, publisher_id, details)
     select 1, ($2::text[])[1 + g % 4], case when g % 4 = 0 then (g * 16 + 808) / 100.0 else (g * 1237 % 150000 + 99) / 100.0 end, 0, 0, 1, 10,
            now(), 86400, now() + interval '1 day', $1, $1, '{}'
       from generate_series(0, 95) g`,
    [platform.publicKey(), CURRENCIES],
  );
});
afterAll(async () => {
  await db.end();
  await t.close();
});

/** The converted price of every lot of the platform in `target`, rounded as shown, as the listing computed it before the stored EUR price. */
async function converted(target: string): Promise<Map<string, string>> {
  const { rows } = await db.query(
    `select l.id::text, round(coalesce(l.highest_bid, case when l.lot_type = 0 then l.buy_now_price else l.start_price end) / rf.units_per_eur * rt.units_per_eur, 2)::text as price
       from lots l join currency_rates rf on rf.currency = l.currency join currency_rates rt on rt.currency = $2
      where l.organizer_id = $1
      order by l.id`,
    [platform.publicKey(), target],
  );
  return new Map(rows.map((r) => [r.id, r.price]));
}

const cents = (v: string) => Math.round(Number(v) * 100);
const money = (c: number) => (c / 100).toFixed(2);

/** The ranges at each of a few converted prices: on it, from a cent above, up to a cent below, up to it. */
function rangesAround(prices: string[]): [string, string][] {
  return prices.flatMap((p) => [
    [p, p],
    [money(cents(p) + 1), ''],
    ['', money(cents(p) - 1)],
    ['', p],
  ]);
}

const sorted = (ids: string[]) => [...ids].sort((a, b) => Number(a) - Number(b));

async function expectSameAsConverted(target: string): Promise<void> {
  const prices = await converted(target);
  // Every 13th lot: each currency in turn, the EUR ones on half cents in USD at 1.0625.
  const picks = [...prices.values()].filter((_, i) => i % 13 === 0);
  for (const [min, max] of rangesAround(picks)) {
    const expected = sorted([...prices].filter(([, p]) => (min === '' || cents(p) >= cents(min)) && (max === '' || cents(p) <= cents(max))).map(([id]) => id));
    const rest = await t.client.get(`/lots?filter[organizer]=${platform.publicKey()}&filter[currency]=${target}&filter[price]=${min},${max}&sort=price&page[limit]=100`);
    expect(rest.status).toBe(200);
    expect({ target, min, max, ids: sorted(rest.body.data.map((l: { id: string }) => l.id)) }).toEqual({ target, min, max, ids: expected });
    const price = { min: min || null, max: max || null };
    const gql = await t.client.graphql(GQL, { f: { organizer: platform.publicKey(), currency: target, price } });
    expect(gql.body.errors).toBeUndefined();
    expect({ target, min, max, ids: sorted(gql.body.data.lots.nodes.map((l: { id: string }) => l.id)) }).toEqual({ target, min, max, ids: expected });
  }
}

describe('filter[price] in a converted currency', () => {
  it('lists exactly the lots whose converted price, rounded to the cent, is in the range, bounds on exact conversions included', async () => {
    for (const target of CURRENCIES) await expectSameAsConverted(target);
  }, 120_000);

  it('stays exact when the rates change between two listings, half cents included', async () => {
    for (const [currency, rate] of [['USD', '1.0625'], ['GEL', '2.937'], ['UAH', '41.123456789012']]) {
      const res = await t.client.as(t.master).graphql(SET_RATE, { currency, rate });
      expect(res.body.errors).toBeUndefined();
      for (const target of CURRENCIES) await expectSameAsConverted(target);
    }
    const halfCents = await db.query(
      `select count(*)::int as n from lots where organizer_id = $1 and currency = 'EUR' and (start_price * 1.0625 * 1000) % 10 = 5`,
      [platform.publicKey()],
    );
    expect(halfCents.rows[0].n).toBeGreaterThan(0);
  }, 240_000);
});
