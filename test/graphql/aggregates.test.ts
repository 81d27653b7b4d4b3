import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Keypair } from '@stellar/stellar-sdk';
import Decimal from 'decimal.js';
import { Bid } from '../../src/modules/bids/bids.entity';
import { Lot, LotState } from '../../src/modules/lots/lots.entity';
import { Participant, ParticipantState } from '../../src/modules/trading/trading.entity';
import { createAccount, type CreatedAccount } from '../helpers/factories';
import { createLot, DIRECT_SALE, ENG_LOT } from '../helpers/lots';
import { statementsSent } from '../helpers/statements';
import { appWithTwoPlatforms } from '../helpers/world';

const world = appWithTwoPlatforms();
const DAY = 86_400_000;
const dayStart = (at: number) => new Date(Math.floor(at / DAY) * DAY);

let bidders: CreatedAccount[];
let sold: Lot[];
/** Three days at UTC around the test's run: every lot and bid of the setup falls in them. */
let from: Date;
let to: Date;

const details = (maker: string) => ({ ...ENG_LOT.details, maker });

beforeAll(async () => {
  const { t, platform, otherPlatform } = world;
  bidders = [await createAccount(t, platform), await createAccount(t, platform)];
  const auction = await createLot(t, platform, { ...ENG_LOT, details: details('Toyota') });
  await createLot(t, platform, { ...ENG_LOT, currency: 'EUR', start_price: '1234.57', buy_now_price: '4321.99', details: details('BMW'), reserve_price: '3999.11' });
  const sale = await createLot(t, platform, { ...DIRECT_SALE, buy_now_price: '12000.33' });
  await createLot(t, platform, { ...ENG_LOT, currency: 'GEL', start_price: '333.33', buy_now_price: '999.97', details: details('Toyota') });
  await createLot(t, otherPlatform, { ...ENG_LOT, start_price: '777.77', details: details('Honda') });
  // Bids through the bid path itself, which keeps the statistics' counts.
  const em = t.orm.em.fork();
  for (const b of bidders) em.create(Participant, { lotId: auction.id, accountId: b.id, state: ParticipantState.Pending });
  await em.flush();
  for (const [who, amount] of [[bidders[0], '1000'], [bidders[1], '1050.55']] as const) {
    const res = await t.client.as(who.keypair).post(`/lots/${auction.id}/bid_requests`, { data: { type: 'bid_requests', attributes: { amount } } });
    expect(res.status).toBe(204);
  }
  // Closing a lot sold is the trading module's business; here the two lots are only set so.
  const today = dayStart(Date.now()).getTime();
  await em.nativeUpdate(Lot, { id: { $in: [auction.id, sale.id] } }, { lotState: LotState.Sold, endTime: new Date(today + 3_600_000) });
  sold = await em.fork().find(Lot, { id: { $in: [auction.id, sale.id] } });
  from = new Date(today - DAY);
  to = new Date(today + 2 * DAY);
});

const gql = (who: Keypair | null, query: string, variables?: Record<string, unknown>) => (who ? world.t.client.as(who) : world.t.client).graphql(query, variables);

const AGGREGATE = `query($filter: LotFilter, $currency: Currency, $groupBy: LotGroupBy) {
  lotsAggregate(filter: $filter, currency: $currency, groupBy: $groupBy) {
    count currency groupsTruncated
    sums { price { amount currency } startPrice { amount } buyNowPrice { amount } highestBid { amount } }
    groups { state maker platformId count sums { price { amount } startPrice { amount } buyNowPrice { amount } highestBid { amount } } }
  }
}`;

interface RestLot {
  attributes: { start_price: string; buy_now_price: string; highest_bid: string; lot_type: number; lot_state: number; publisher_id: string; details: { maker?: string } };
}

/** Every lot the REST index lists under `query`, prices in `currency`. */
async function listed(who: Keypair | null, currency: string, query = ''): Promise<RestLot[]> {
  const res = await (who ? world.t.client.as(who) : world.t.client).get(`/lots?filter[currency]=${currency}&page[limit]=100${query}`);
  expect(res.status).toBe(200);
  return res.body.data;
}

/** The sums of listed lots as a client adds up what it was shown. */
function sumsOf(lots: RestLot[]) {
  const sum = (f: (a: RestLot['attributes']) => string) => lots.reduce((s, l) => s.plus(f(l.attributes)), new Decimal(0)).toFixed(2);
  const price = (a: RestLot['attributes']) => (new Decimal(a.highest_bid).gt(0) ? a.highest_bid : a.lot_type === 0 ? a.buy_now_price : a.start_price);
  return { price: sum(price), startPrice: sum((a) => a.start_price), buyNowPrice: sum((a) => a.buy_now_price), highestBid: sum((a) => a.highest_bid) };
}

const shownSums = (s: Record<string, { amount: string }>) => Object.fromEntries(Object.entries(s).map(([k, v]) => [k, v.amount]));

describe('lotsAggregate', () => {
  it('sums exactly to the cent what the REST index lists, in each currency, each price rounded as shown', async () => {
    for (const currency of ['USD', 'EUR', 'GEL', 'BTC']) {
      const lots = await listed(null, currency);
      const res = await gql(null, AGGREGATE, { currency });
      expect(res.body.errors).toBeUndefined();
      const aggregate = res.body.data.lotsAggregate;
      expect(aggregate.count).toBe(lots.length);
      expect(aggregate.currency).toBe(currency);
      expect(aggregate.sums.price.currency).toBe(currency);
      expect(shownSums(aggregate.sums)).toEqual(sumsOf(lots));
    }
  });

  it('counts what lots(filter:) lists under the same filter, in the filter\'s currency by default', async () => {
    const filter = { maker: 'toyota', currency: 'EUR' };
    const res = await gql(null, AGGREGATE, { filter });
    const lots = await listed(null, 'EUR', '&filter[maker]=toyota');
    expect(lots).toHaveLength(2);
    expect(res.body.data.lotsAggregate).toMatchObject({ count: 2, currency: 'EUR' });
    expect(shownSums(res.body.data.lotsAggregate.sums)).toEqual(sumsOf(lots));
    const counted = await gql(null, 'query($filter: LotFilter) { lotsCount(filter: $filter) }', { filter });
    expect(counted.body.data.lotsCount).toBe(2);
  });

  it('groups by state, maker and platform as the listed lots group, the largest first', async () => {
    const lots = await listed(null, 'USD');
    const keys = {
      STATE: (a: RestLot['attributes']) => ({ state: ['', 'PENDING', 'SOLD', 'FINISHED'][a.lot_state], maker: null, platformId: null }),
      MAKER: (a: RestLot['attributes']) => ({ state: null, maker: a.details.maker ?? null, platformId: null }),
      PLATFORM: (a: RestLot['attributes']) => ({ state: null, maker: null, platformId: a.publisher_id }),
    };
    for (const [groupBy, keyOf] of Object.entries(keys)) {
      const groups = new Map<string, RestLot[]>();
      for (const lot of lots) {
        const key = JSON.stringify(keyOf(lot.attributes));
        groups.set(key, [...(groups.get(key) ?? []), lot]);
      }
      const res = await gql(null, AGGREGATE, { currency: 'USD', groupBy });
      const answered = res.body.data.lotsAggregate.groups;
      expect(answered).toHaveLength(groups.size);
      for (const g of answered) {
        const { state, maker, platformId } = g;
        const members = groups.get(JSON.stringify({ state, maker, platformId })) as RestLot[];
        expect(g.count).toBe(members.length);
        expect(shownSums(g.sums)).toEqual(sumsOf(members));
      }
      expect(answered.map((g: { count: number }) => g.count)).toEqual([...answered.map((g: { count: number }) => g.count)].sort((a, b) => b - a));
      expect(res.body.data.lotsAggregate.groupsTruncated).toBe(false);
    }
  });

  it('counts for each caller what lots lists to it, refuses the private filters as lots does, and never shows the reserve', async () => {
    const { platform, admin, otherAdmin } = world;
    const callers: (Keypair | null)[] = [null, platform, admin.keypair, otherAdmin.keypair, bidders[0].keypair];
    const filters = [{}, { invoiceSent: true }, { invoiceSent: false }, { hasParticipants: true }, { publisher: [platform.publicKey()] }];
    for (const who of callers) {
      for (const filter of filters) {
        const both = await gql(who, `query($filter: LotFilter) { lotsCount(filter: $filter) lotsAggregate(filter: $filter) { count } }`, { filter });
        expect(both.body.errors).toBeUndefined();
        expect(both.body.data.lotsAggregate.count).toBe(both.body.data.lotsCount);
      }
      const mine = await gql(who, AGGREGATE, { filter: { starsOf: bidders[1].id } });
      const lots = await gql(who, 'query($filter: LotFilter) { lotsCount(filter: $filter) }', { filter: { starsOf: bidders[1].id } });
      expect(mine.body.errors?.[0]?.extensions?.code).toBe(lots.body.errors?.[0]?.extensions?.code);
    }
    const asOther = await gql(otherAdmin.keypair, AGGREGATE, { filter: { starsOf: bidders[1].id } });
    expect(asOther.body.errors[0].extensions.code).toBe('not_allowed');
    const asStaff = await gql(platform, AGGREGATE, { currency: 'EUR' });
    expect(JSON.stringify(asStaff.body)).not.toContain('3999.11');
  });

  it('refuses a currency or a grouping it does not have, naming the argument, and answers zeros for no lots', async () => {
    const bad = await gql(null, '{ lotsAggregate(currency: XYZ) { count } }');
    expect(bad.body.errors[0].message).toMatch(/Currency/);
    const group = await gql(null, '{ lotsAggregate(groupBy: COLOR) { count } }');
    expect(group.body.errors[0].message).toMatch(/groupBy|LotGroupBy/);
    const none = await gql(null, AGGREGATE, { filter: { maker: 'Trabant' }, groupBy: 'MAKER' });
    expect(none.body.data.lotsAggregate).toMatchObject({ count: 0, groups: [], sums: { price: { amount: '0.00', currency: 'USD' }, highestBid: { amount: '0.00' } } });
  });

  it('is charged one statement, as lotsCount is', async () => {
    const twenty = Array.from({ length: 21 }, (_, i) => `a${i}: lotsAggregate { count }`).join(' ');
    const res = await gql(null, `{ ${twenty} }`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe('query_too_costly');
  });
});

const STATS = `query($platformId: ID!, $from: DateTimeISO!, $to: DateTimeISO!, $interval: StatsInterval!, $currency: Currency) {
  platformStats(platformId: $platformId, from: $from, to: $to, interval: $interval, currency: $currency) {
    platformId interval currency
    intervals { start end lotsListed lotsSold bids activeBidders gmv { amount currency } }
  }
}`;

interface Interval {
  start: string;
  end: string;
  lotsListed: number;
  lotsSold: number;
  bids: number;
  activeBidders: number;
  gmv: { amount: string; currency: string };
}

/** What the rows say per bucket of `step` ms, read off the lots and the bids themselves. */
async function truth(step: number, platformId: string, currency: string) {
  const em = world.t.orm.em.fork();
  const lots = await em.find(Lot, { publisherId: platformId });
  const bids = await em.find(Bid, { lotId: { $in: lots.map((l) => l.id) } });
  const bucket = (at: Date) => Math.floor(at.getTime() / step) * step;
  const gmv = new Map<number, Decimal>();
  for (const lot of sold) {
    const shown = (await world.t.client.get(`/lots/${lot.id}?currency=${currency}`)).body.data.attributes;
    const price = new Decimal(shown.highest_bid).gt(0) ? shown.highest_bid : lot.lotType === 0 ? shown.buy_now_price : shown.start_price;
    gmv.set(bucket(lot.endTime), (gmv.get(bucket(lot.endTime)) ?? new Decimal(0)).plus(price));
  }
  const at = (start: number) => ({
    lotsListed: lots.filter((l) => bucket(l.createdAt) === start).length,
    lotsSold: sold.filter((l) => bucket(l.endTime) === start).length,
    bids: bids.filter((b) => bucket(b.createdAt) === start).length,
    activeBidders: new Set(bids.filter((b) => bucket(b.createdAt) === start).map((b) => b.accountId)).size,
    gmv: { amount: (gmv.get(start) ?? new Decimal(0)).toFixed(2), currency },
  });
  return at;
}

describe('platformStats', () => {
  it("answers a platform's lots listed and sold, bids, active bidders and GMV per interval, to the cent, in one round trip", async () => {
    const platformId = world.platform.publicKey();
    for (const [interval, step] of [['DAY', DAY], ['HOUR', 3_600_000]] as const) {
      const answers: Awaited<ReturnType<typeof gql>>[] = [];
      const statements = await statementsSent(async () => {
        answers.push(await gql(world.admin.keypair, STATS, { platformId, from: from.toISOString(), to: to.toISOString(), interval, currency: 'EUR' }));
      });
      const { body } = answers[0];
      expect(body.errors).toBeUndefined();
      const stats = body.data.platformStats;
      expect(stats).toMatchObject({ platformId, interval, currency: 'EUR' });
      const expected = await truth(step, platformId, 'EUR');
      expect(stats.intervals).toHaveLength((to.getTime() - from.getTime()) / step);
      stats.intervals.forEach((got: Interval, i: number) => {
        const start = from.getTime() + i * step;
        expect(got).toEqual({ start: new Date(start).toISOString().replace('.000', ''), end: new Date(start + step).toISOString().replace('.000', ''), ...expected(start) });
      });
      const totals = stats.intervals.reduce((s: number[], v: Interval) => [s[0] + v.lotsListed, s[1] + v.lotsSold, s[2] + v.bids], [0, 0, 0]);
      expect(totals).toEqual([4, 2, 2]);
      expect(statements.filter((s) => /bid_activity|from lots l|from currency_rates where/.test(s))).toHaveLength(3);
    }
  });

  it('answers the master account, and refuses the staff of another platform, its users and anonymous callers', async () => {
    const vars = { platformId: world.platform.publicKey(), from: from.toISOString(), to: to.toISOString(), interval: 'DAY' };
    const master = await gql(world.t.master, STATS, vars);
    expect(master.body.errors).toBeUndefined();
    expect(master.body.data.platformStats.intervals.reduce((s: number, v: Interval) => s + v.bids, 0)).toBe(2);
    for (const who of [world.otherAdmin.keypair, world.otherPlatform, bidders[0].keypair]) {
      const res = await gql(who, STATS.replace('{\n  platformStats', '{ ping { currentTime } platformStats'), vars);
      expect(res.body.data).toEqual({ ping: { currentTime: expect.any(Number) }, platformStats: null });
      expect(res.body.errors).toEqual([expect.objectContaining({ path: ['platformStats'], extensions: expect.objectContaining({ code: 'not_allowed', status: 403 }) })]);
    }
    const anonymous = await gql(null, STATS, vars);
    expect(anonymous.body.errors[0].extensions.code).toBe('unauthenticated');
  });

  it('refuses a range it cannot answer with stats_range_invalid naming the argument', async () => {
    const platformId = world.platform.publicKey();
    const ask = (vars: Record<string, string>) => gql(world.platform, STATS, { platformId, interval: 'DAY', from: from.toISOString(), to: to.toISOString(), ...vars });
    const fault = async (vars: Record<string, string>) => (await ask(vars)).body.errors[0];
    expect(await fault({ from: new Date(from.getTime() + 60_000).toISOString() })).toMatchObject({ extensions: { code: 'stats_range_invalid', errors: [expect.objectContaining({ field: 'from' })] } });
    expect(await fault({ to: new Date(to.getTime() + 3_600_000).toISOString() })).toMatchObject({ extensions: { code: 'stats_range_invalid', errors: [expect.objectContaining({ field: 'to' })] } });
    expect(await fault({ from: to.toISOString(), to: from.toISOString() })).toMatchObject({ extensions: { code: 'stats_range_invalid', errors: [expect.objectContaining({ field: 'from' })] } });
    expect(await fault({ to: from.toISOString() })).toMatchObject({ extensions: { code: 'stats_range_invalid', errors: [expect.objectContaining({ field: 'from' })] } });
    expect(await fault({ interval: 'HOUR', to: new Date(from.getTime() + 367 * 3_600_000).toISOString() })).toMatchObject({ extensions: { code: 'stats_range_invalid', errors: [expect.objectContaining({ field: 'to' })] } });
    expect(await fault({ interval: 'WEEK' })).toMatchObject({ extensions: { code: 'stats_range_invalid' } });
    expect((await fault({ interval: 'YEAR' })).message).toMatch(/interval|StatsInterval/);
    expect((await ask({ interval: 'HOUR', to: new Date(from.getTime() + 366 * 3_600_000).toISOString() })).body.data.platformStats.intervals).toHaveLength(366);
  });

  it('answers zeros for a range without activity, every interval of it', async () => {
    const res = await gql(world.platform, STATS, { platformId: world.platform.publicKey(), from: '2020-01-01T00:00:00Z', to: '2021-01-01T00:00:00Z', interval: 'MONTH' });
    const intervals = res.body.data.platformStats.intervals;
    expect(intervals).toHaveLength(12);
    expect(intervals[1]).toEqual({ start: '2020-02-01T00:00:00Z', end: '2020-03-01T00:00:00Z', lotsListed: 0, lotsSold: 0, bids: 0, activeBidders: 0, gmv: { amount: '0.00', currency: 'USD' } });
  });
});

describe("docs/graphql.md's operator dashboard", () => {
  it('runs as documented and answers what platformStats and lotsAggregate answer', async () => {
    const doc = readFileSync(path.join(__dirname, '../../docs/graphql.md'), 'utf8');
    const section = doc.slice(doc.indexOf("## Aggregates and the operator's dashboard"));
    const query = /```graphql\n([\s\S]*?)```/.exec(section)?.[1] as string;
    const platformId = world.platform.publicKey();
    const res = await gql(world.admin.keypair, query, { platformId, publisher: [platformId], from: from.toISOString(), to: to.toISOString() });
    expect(res.body.errors).toBeUndefined();
    const { platformStats, lotsAggregate } = res.body.data;
    expect(platformStats.intervals).toHaveLength(3);
    expect(platformStats.intervals.reduce((s: number, v: Interval) => s + v.activeBidders, 0)).toBeGreaterThanOrEqual(2);
    const lots = await listed(world.admin.keypair, 'USD', `&filter[publisher]=${platformId}`);
    expect(lotsAggregate.count).toBe(lots.length);
    expect(lotsAggregate.sums.price).toEqual({ amount: sumsOf(lots).price, currency: 'USD' });
    const gmv = platformStats.intervals.reduce((s: Decimal, v: Interval) => s.plus(v.gmv.amount), new Decimal(0));
    const soldPrices = lotsAggregate.groups.find((g: { state: string }) => g.state === 'SOLD').sums.price.amount;
    expect(gmv.toFixed(2)).toBe(soldPrices);
  });
});

describe('the REST twins, GET /lots/aggregate and GET /platforms/{id}/stats', () => {
  const rest = (who: Keypair | null, target: string) => (who ? world.t.client.as(who) : world.t.client).get(target);
  const STATE_NAMES: Record<string, string> = { PENDING: 'pending', SOLD: 'sold', FINISHED: 'finished' };
  const wireSums = (s: Record<string, { amount: string }>) => ({ price: s.price.amount, start_price: s.startPrice.amount, buy_now_price: s.buyNowPrice.amount, highest_bid: s.highestBid.amount });

  it('GET /lots/aggregate answers what lotsAggregate answers, field by field, for each grouping and currency', async () => {
    for (const [groupBy, currency] of [['STATE', 'EUR'], ['MAKER', 'USD'], ['PLATFORM', 'GEL'], [null, 'USD']] as const) {
      const graph = (await gql(world.admin.keypair, AGGREGATE, { filter: { publisher: [world.platform.publicKey(), world.otherPlatform.publicKey()] }, currency, groupBy })).body.data.lotsAggregate;
      const query = `filter[publisher]=${world.platform.publicKey()},${world.otherPlatform.publicKey()}&currency=${currency}${groupBy ? `&group_by=${groupBy.toLowerCase()}` : ''}`;
      const res = await rest(world.admin.keypair, `/lots/aggregate?${query}`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        type: 'lots_aggregates',
        id: groupBy ? `${currency}:${groupBy.toLowerCase()}` : currency,
        attributes: {
          count: graph.count,
          currency,
          sums: wireSums(graph.sums),
          group_by: groupBy?.toLowerCase() ?? null,
          groups: graph.groups.map((g: { state: string | null; maker: string | null; platformId: string | null; count: number; sums: Record<string, { amount: string }> }) => ({
            key: groupBy === 'STATE' ? STATE_NAMES[g.state as string] : groupBy === 'MAKER' ? g.maker : g.platformId,
            count: g.count,
            sums: wireSums(g.sums),
          })),
          groups_truncated: graph.groupsTruncated,
        },
      });
      expect(res.body.data.attributes.count).toBeGreaterThan(0);
    }
  });

  it('GET /lots/aggregate refuses a grouping or a currency it does not have, naming the parameter', async () => {
    for (const [query, parameter] of [['group_by=color', 'group_by'], ['currency=XYZ', 'currency'], ['filter[makr]=Toyota', 'filter[makr]']] as const) {
      const res = await rest(null, `/lots/aggregate?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.errors[0].source).toEqual({ parameter });
    }
  });

  it('GET /platforms/{id}/stats answers what platformStats answers, to its staff and the master account only', async () => {
    const platformId = world.platform.publicKey();
    const vars = { platformId, from: from.toISOString(), to: to.toISOString(), interval: 'DAY', currency: 'EUR' };
    const graph = (await gql(world.admin.keypair, STATS, vars)).body.data.platformStats;
    const target = `/platforms/${platformId}/stats?from=${vars.from}&to=${vars.to}&interval=day&currency=EUR`;
    for (const who of [world.admin.keypair, world.platform, world.t.master]) {
      const res = await rest(who, target);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual({
        type: 'platform_stats',
        id: platformId,
        attributes: {
          interval: 'day',
          currency: 'EUR',
          intervals: graph.intervals.map((i: Interval) => ({ start: i.start, end: i.end, lots_listed: i.lotsListed, lots_sold: i.lotsSold, bids: i.bids, active_bidders: i.activeBidders, gmv: i.gmv.amount })),
        },
      });
    }
    expect(graph.intervals.reduce((s: number, v: Interval) => s + v.bids, 0)).toBe(2);
    for (const who of [world.otherAdmin.keypair, world.otherPlatform, bidders[0].keypair]) {
      const res = await rest(who, target);
      expect([res.status, res.body.errors[0].code]).toEqual([403, 'not_allowed']);
    }
    expect((await rest(null, target)).status).toBe(401);
  });

  it('GET /platforms/{id}/stats refuses a range it cannot answer, naming the parameter as platformStats names the argument', async () => {
    const base = `/platforms/${world.platform.publicKey()}/stats?interval=day`;
    const off = new Date(from.getTime() + 60_000).toISOString();
    for (const [query, code, parameter] of [
      [`&from=${off}&to=${to.toISOString()}`, 'stats_range_invalid', 'from'],
      [`&from=${to.toISOString()}&to=${from.toISOString()}`, 'stats_range_invalid', 'from'],
      [`&from=yesterday&to=${to.toISOString()}`, 'invalid_field', 'from'],
      [`&from=${from.toISOString()}`, 'missing_parameter', 'to'],
    ] as const) {
      const res = await rest(world.platform, `${base}${query}`);
      expect([res.status, res.body.errors[0].code, res.body.errors[0].source]).toEqual([400, code, { parameter }]);
    }
  });
});
